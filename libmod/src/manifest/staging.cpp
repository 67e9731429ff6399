#include "staging.hpp"

#include "libmod/core/error.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mod::manifest::detail {

namespace fs = std::filesystem;

namespace {

bool same_file(const fs::path& a, const fs::path& b) {
    struct stat sa {}, sb {};
    if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

}  // namespace

Stage::Stage(std::vector<fs::path> inputs) : inputs_(std::move(inputs)) {}

Stage::~Stage() {
    items_.clear();  // an uncommitted PendingOutput removes its temporary file
    if (committed_) return;
    for (auto d = created_dirs_.rbegin(); d != created_dirs_.rend(); ++d) ::rmdir(d->c_str());
}

void Stage::add(const fs::path& destination, ByteView data) {
    ensure_replaceable_output(destination);
    ensure_distinct_output(destination, inputs_);
    for (const auto& d : destinations_)
        if (d.lexically_normal() == destination.lexically_normal() || same_file(d, destination))
            throw Error(ErrorKind::conflict, "two outputs of this build are the same file", destination.string());

    // Missing folders are created, and removed again if the build fails.
    fs::path dir = destination.parent_path();
    if (dir.empty()) dir = ".";
    std::vector<fs::path> missing;
    for (fs::path d = dir; !d.empty() && !fs::exists(d); d = d.parent_path()) missing.push_back(d);
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
        if (::mkdir(it->c_str(), 0777) != 0 && errno != EEXIST)
            throw Error(ErrorKind::io, std::string("cannot create the output folder: ") + std::strerror(errno), it->string());
        created_dirs_.push_back(*it);
    }
    struct stat ds {};
    if (::stat(dir.c_str(), &ds) != 0 || !S_ISDIR(ds.st_mode))
        throw Error(ErrorKind::io, "the output's folder is not a folder", dir.string());

    items_.push_back(std::make_unique<PendingOutput>(destination, inputs_));
    destinations_.push_back(destination);
    if (data.size() >= sparse_output_min) items_.back()->write_sparse(data);  // same bytes, zero blocks as holes
    else items_.back()->write(data);
}

void Stage::commit() {
    for (std::size_t i = 0; i < items_.size(); ++i) {
        try {
            items_[i]->commit();
        } catch (Error& e) {
            committed_ = true;  // what is in place stays; the rest is removed with the stage
            throw Error(e.kind(), e.message() + " (" + std::to_string(i) + " of " + std::to_string(items_.size()) +
                                      " outputs were already in place)",
                        e.file());
        }
    }
    committed_ = true;
}

}  // namespace mod::manifest::detail
