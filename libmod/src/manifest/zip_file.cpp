// Zip archives through libzip (zip_file.hpp).
#include "zip_file.hpp"

#include "libmod/core/error.hpp"

#include <zip.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <set>
#include <sys/stat.h>

namespace mod::manifest::detail {

namespace {

struct SourceFree {
    void operator()(zip_source_t* s) const { zip_source_free(s); }
};
struct ArchiveDiscard {
    void operator()(zip_t* z) const { zip_discard(z); }
};

std::string zip_message(zip_error_t* e) {
    std::string m = zip_error_strerror(e);
    zip_error_fini(e);
    return m;
}

// 1980-01-01 00:00:00 in MS-DOS form: date (year - 1980) << 9 | month << 5 | day, time 0.
constexpr std::uint16_t dos_date = (0 << 9) | (1 << 5) | 1, dos_time = 0;

std::string name_problem(const std::string& name) {
    if (name.empty()) return "an empty name";
    if (name.front() == '/') return "an absolute path";
    if (name.size() >= 2 && name[1] == ':' && std::isalpha(static_cast<unsigned char>(name[0])))
        return "a drive letter";
    for (unsigned char c : name) {
        if (c < 0x20 || c == 0x7F) return "a control byte in the name";
        if (c == '\\') return "a backslash (zip names use /)";
    }
    std::size_t start = 0;
    while (start <= name.size()) {
        const std::size_t slash = std::min(name.find('/', start), name.size());
        const std::string part = name.substr(start, slash - start);
        if (part == "..") return "a \"..\" that leaves the pack's folder";
        if (part == "." ) return "a \".\" path part";
        if (part.empty() && slash != name.size()) return "an empty path part (//)";
        start = slash + 1;
    }
    return {};
}

}  // namespace

Bytes write_zip(const std::vector<ZipEntry>& entries, const std::string& comment) {
    zip_error_t e;
    zip_error_init(&e);
    std::unique_ptr<zip_source_t, SourceFree> buffer(zip_source_buffer_create(nullptr, 0, 0, &e));
    if (!buffer) throw Error(ErrorKind::limit, "libzip: " + zip_message(&e));
    zip_source_keep(buffer.get());
    std::unique_ptr<zip_t, ArchiveDiscard> za(zip_open_from_source(buffer.get(), ZIP_TRUNCATE, &e));
    if (!za) {
        zip_source_free(buffer.get());  // zip_open_from_source failed: drop the reference it did not take
        throw Error(ErrorKind::limit, "libzip: " + zip_message(&e));
    }
    auto fail = [&](const std::string& what) {
        throw Error(ErrorKind::limit, "libzip: " + what + ": " + zip_strerror(za.get()));
    };
    for (const auto& entry : entries) {
        zip_source_t* s = zip_source_buffer(za.get(), entry.data.data(), entry.data.size(), 0);
        if (!s) fail("could not take " + entry.name);
        const zip_int64_t index = zip_file_add(za.get(), entry.name.c_str(), s, ZIP_FL_ENC_UTF_8);
        if (index < 0) {
            zip_source_free(s);
            fail("could not add " + entry.name);
        }
        const auto i = static_cast<zip_uint64_t>(index);
        if (zip_set_file_compression(za.get(), i, ZIP_CM_DEFLATE, 9) != 0 ||
            zip_file_set_dostime(za.get(), i, dos_time, dos_date, 0) != 0 ||
            zip_file_set_external_attributes(za.get(), i, 0, ZIP_OPSYS_UNIX, zip_uint32_t(S_IFREG | 0644) << 16) != 0)
            fail("could not set " + entry.name + "'s attributes");
    }
    if (!comment.empty() && zip_set_archive_comment(za.get(), comment.c_str(), static_cast<zip_uint16_t>(comment.size())) != 0)
        fail("could not set the comment");
    if (zip_close(za.get()) != 0) fail("could not write the zip");
    (void)za.release();  // closed
    zip_source_t* src = buffer.get();
    if (zip_source_open(src) != 0) throw Error(ErrorKind::limit, "libzip: could not read back the zip");
    zip_source_seek(src, 0, SEEK_END);
    const zip_int64_t size = zip_source_tell(src);
    zip_source_seek(src, 0, SEEK_SET);
    Bytes out(static_cast<std::size_t>(std::max<zip_int64_t>(size, 0)));
    const zip_int64_t got = out.empty() ? 0 : zip_source_read(src, out.data(), out.size());
    zip_source_close(src);
    if (got != size) throw Error(ErrorKind::limit, "libzip: could not read back the zip");
    return out;
}

ZipContents read_zip(ByteView bytes, const std::string& file, const ZipLimits& limits) {
    zip_error_t e;
    zip_error_init(&e);
    zip_source_t* raw = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &e);
    if (!raw) throw Error(ErrorKind::limit, "libzip: " + zip_message(&e), file);
    std::unique_ptr<zip_t, ArchiveDiscard> za(zip_open_from_source(raw, ZIP_RDONLY | ZIP_CHECKCONS, &e));
    if (!za) {
        zip_source_free(raw);
        throw Error(ErrorKind::format, "not a readable zip: " + zip_message(&e), file, 0, "zip");
    }
    const zip_int64_t count = zip_get_num_entries(za.get(), 0);
    if (count < 0 || std::uint64_t(count) > limits.max_entries)
        throw Error(ErrorKind::limit, std::to_string(count) + " entries; a mod pack holds at most " +
                                          std::to_string(limits.max_entries), file, no_offset, "zip");
    ZipContents out;
    int comment_size = 0;
    if (const char* c = zip_get_archive_comment(za.get(), &comment_size, ZIP_FL_ENC_RAW); c && comment_size > 0)
        out.comment.assign(c, static_cast<std::size_t>(comment_size));
    // Every entry's name, kind and declared size first: nothing is inflated for a pack refused.
    std::set<std::string> folded;
    std::uint64_t total = 0;
    std::vector<std::pair<zip_uint64_t, zip_stat_t>> regular;
    for (zip_uint64_t i = 0; i < zip_uint64_t(count); ++i) {
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(za.get(), i, 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME) || !(st.valid & ZIP_STAT_SIZE))
            throw Error(ErrorKind::format, "entry " + std::to_string(i) + " cannot be read: " + zip_strerror(za.get()),
                        file, no_offset, "zip.entry[" + std::to_string(i) + "]");
        std::string name = st.name;
        const std::string where = "zip.entry[" + std::to_string(i) + "]";
        const bool folder = !name.empty() && name.back() == '/';
        if (folder) name.pop_back();
        if (const std::string p = name_problem(name); !p.empty())
            throw Error(ErrorKind::format, "entry \"" + std::string(st.name) + "\": " + p, file, no_offset, where);
        zip_uint8_t opsys = 0;
        zip_uint32_t attributes = 0;
        if (zip_file_get_external_attributes(za.get(), i, 0, &opsys, &attributes) == 0 && opsys == ZIP_OPSYS_UNIX &&
            S_ISLNK(attributes >> 16))
            throw Error(ErrorKind::format, "entry \"" + name + "\" is a symlink; a mod pack holds files only", file,
                        no_offset, where);
        if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE)
            throw Error(ErrorKind::format, "entry \"" + name + "\" is encrypted", file, no_offset, where);
        std::string key = name;
        for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (folder) continue;
        if (!folded.insert(key).second)
            throw Error(ErrorKind::format, "two entries named \"" + name + "\" (names compared case-folded)", file,
                        no_offset, where);
        total += st.size;
        if (st.size > limits.max_total || total > limits.max_total)
            throw Error(ErrorKind::limit, "the entries add up to more than " + std::to_string(limits.max_total >> 20) +
                                              " MiB uncompressed (at \"" + name + "\")", file, no_offset, where);
        regular.emplace_back(i, st);
    }
    for (const auto& [i, st] : regular) {
        const std::string where = "zip.entry[" + std::to_string(i) + "]";
        zip_file_t* f = zip_fopen_index(za.get(), i, 0);
        if (!f)
            throw Error(ErrorKind::format, "entry \"" + std::string(st.name) + "\" cannot be opened: " + zip_strerror(za.get()),
                        file, no_offset, where);
        ZipEntry entry;
        entry.name = st.name;
        entry.data.resize(static_cast<std::size_t>(st.size));
        zip_int64_t got = entry.data.empty() ? 0 : zip_fread(f, entry.data.data(), entry.data.size());
        std::uint8_t extra = 0;
        const zip_int64_t more = got == zip_int64_t(st.size) ? zip_fread(f, &extra, 1) : 0;
        std::string problem;
        if (got < 0 || more < 0) problem = zip_file_strerror(f);
        else if (got != zip_int64_t(st.size) || more != 0) problem = "its data does not match its declared size";
        zip_fclose(f);
        if (!problem.empty())
            throw Error(ErrorKind::format, "entry \"" + entry.name + "\" is damaged: " + problem, file, no_offset, where);
        out.files.push_back(std::move(entry));
    }
    return out;
}

}  // namespace mod::manifest::detail
