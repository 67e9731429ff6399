// Mod packs: a zip of the mod's folder without the game (pack.hpp, doc/manifest.md "Sharing a
// mod"). The zip itself is zip_file.cpp's.
#include "libmod/manifest/pack.hpp"

#include "apply_detail.hpp"
#include "json_source.hpp"
#include "schema.hpp"
#include "zip_file.hpp"

#include "libmod/core/error.hpp"
#include "libmod/core/file.hpp"
#include "libmod/core/hash.hpp"
#include "libmod/image/jpeg.hpp"

#include <algorithm>
#include <iterator>
#include <cstring>
#include <fstream>
#include <rapidjson/pointer.h>
#include <set>
#include <optional>
#include <system_error>

namespace mod::manifest {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t pack_max_files = 20000;
constexpr std::uint64_t pack_max_bytes = std::uint64_t(2) << 30;
constexpr int pack_max_depth = 16;
const std::string comment_prefix = "modkit pack 1; manifest: ";

// What a file must not be: the base file of an input, known by what the manifest declares and,
// where the base file is at hand, by its own size and SHA-1.
struct BaseIdentity {
    const InputDecl* input = nullptr;
    std::optional<std::uint64_t> size;
    std::optional<std::string> sha1;  // of the file at hand, else the declared one
};

std::vector<BaseIdentity> base_identities(const Manifest& m) {
    std::vector<BaseIdentity> out;
    for (const auto& in : m.inputs) {
        BaseIdentity b;
        b.input = &in;
        b.sha1 = in.sha1;
        std::error_code ec;
        if (fs::is_regular_file(in.path, ec)) {
            const Bytes bytes = read_file(in.path);
            b.size = bytes.size();
            b.sha1 = detail::sha1_hex(bytes);
        }
        out.push_back(std::move(b));
    }
    return out;
}

// The input whose base file `bytes` are, or null.
const InputDecl* base_of(ByteView bytes, const std::vector<BaseIdentity>& bases, std::optional<std::string>& sha1) {
    for (const auto& b : bases) {
        const InputDecl& in = *b.input;
        const bool by_hash = b.sha1 || in.md5 || in.crc32;
        if (!by_hash || (b.size && *b.size != bytes.size())) continue;
        if (b.sha1) {
            if (!sha1) sha1 = detail::sha1_hex(bytes);
            if (*sha1 != *b.sha1) continue;
        }
        if (in.md5 && to_hex(md5(bytes)) != *in.md5) continue;
        if (in.crc32 && detail::crc32_hex(bytes) != *in.crc32) continue;
        return &in;
    }
    return nullptr;
}

std::string relative_name(const fs::path& p, const fs::path& root) { return p.lexically_relative(root).generic_string(); }

bool same_file(const fs::path& a, const fs::path& b) {
    std::error_code ec;
    return fs::equivalent(a, b, ec) && !ec;
}

bool is_below(const fs::path& p, const fs::path& folder) {
    const auto rel = p.lexically_normal().lexically_relative(folder.lexically_normal());
    return !rel.empty() && *rel.begin() != "..";
}

// The first word of an N64 ROM in any of its three byte orders (z64, v64, n64).
bool n64_rom_magic(ByteView b) {
    static const std::uint8_t orders[3][4] = {{0x80, 0x37, 0x12, 0x40}, {0x37, 0x80, 0x40, 0x12}, {0x40, 0x12, 0x37, 0x80}};
    if (b.size() < 0x1000) return false;
    for (const auto& o : orders)
        if (std::memcmp(b.data(), o, 4) == 0) return true;
    return false;
}

struct Walk {
    Walk(const Manifest& manifest, fs::path root_folder, fs::path zip)
        : m(manifest), root(std::move(root_folder)), out_zip(std::move(zip)) {}
    const Manifest& m;
    fs::path root, out_zip;
    std::vector<BaseIdentity> bases;
    std::vector<fs::path> products;  // outputs and their patches
    std::set<fs::path> named;         // every path the manifest names, normalised
    std::set<fs::path> base_folders;  // top folders below the root holding an input's base file
    std::vector<detail::ZipEntry> entries;
    PackResult result;
    std::uint64_t total = 0;

    void leave(const fs::path& p, const std::string& why, bool folder = false) {
        result.left_out.push_back({relative_name(p, root) + (folder ? "/" : ""), why});
    }

    std::optional<std::string> product_of(const fs::path& p) const {
        for (const auto& o : products)
            if (p.lexically_normal() == o.lexically_normal()) return "an output of apply (it holds the base game)";
        if (m.report && is_below(p, *m.report)) return "the report apply writes";
        return std::nullopt;
    }

    void file(const fs::path& p) {
        if (same_file(p, out_zip)) return;
        const std::string name = p.filename().string();
        if (name.find(".modkit-tmp.") != std::string::npos) return leave(p, "a modkit temporary");
        if (auto why = product_of(p)) return leave(p, *why);
        const bool is_named = named.count(p.lexically_normal()) > 0;
        if (!is_named)
            for (const auto& f : base_folders)
                if (is_below(p, f))
                    return leave(p, "in " + relative_name(f, root) + "/ with the base files, and named by no edit (game files live there)");
        for (const auto& b : bases)
            if (same_file(p, b.input->path)) return leave(p, "the base file of input \"" + b.input->name + "\"");
        if (entries.size() >= pack_max_files)
            throw Error(ErrorKind::limit, "the mod folder holds more than " + std::to_string(pack_max_files) + " files",
                        root.string());
        Bytes bytes = read_file(p, pack_max_bytes);
        if (!is_named && n64_rom_magic(bytes)) return leave(p, "an N64 ROM image (a game file), named by no edit");
        std::optional<std::string> sha1;
        if (const InputDecl* in = base_of(bytes, bases, sha1))
            return leave(p, "a copy of input \"" + in->name + "\"'s base file");
        total += bytes.size();
        if (total > pack_max_bytes)
            throw Error(ErrorKind::limit, "the mod's files add up to more than 2 GiB", root.string());
        result.files.push_back({relative_name(p, root), bytes.size()});
        entries.push_back({relative_name(p, root), std::move(bytes)});
    }

    void folder(const fs::path& dir, int depth) {
        std::vector<fs::directory_entry> here;
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) here.push_back(*it);
        if (ec) throw Error(ErrorKind::io, "cannot list the folder: " + ec.message(), dir.string());
        std::sort(here.begin(), here.end(), [](const auto& a, const auto& b) { return a.path() < b.path(); });
        for (const auto& e : here) {
            const fs::path& p = e.path();
            const std::string name = p.filename().string();
            std::error_code e2;
            if (e.is_symlink(e2)) {
                leave(p, "a symlink (a pack holds files: copy the file in if players need it)");
            } else if (e.is_directory(e2)) {
                if (name.front() == '.') leave(p, "a hidden folder", true);
                else if (m.report && p.lexically_normal() == m.report->lexically_normal()) leave(p, "the report apply writes", true);
                else if (depth >= pack_max_depth) leave(p, "more than 16 folders deep", true);
                else folder(p, depth + 1);
            } else if (e.is_regular_file(e2)) {
                if (name.front() == '.') leave(p, "a hidden file");
                else file(p);
            } else {
                leave(p, "not a regular file");
            }
        }
    }
};

bool picture_magic(ByteView b) {
    static const std::uint8_t png[] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    return (b.size() >= 8 && std::memcmp(b.data(), png, 8) == 0) || image::is_jpeg(b);
}

}  // namespace

PackResult pack_mod(const Manifest& m, const fs::path& out_zip) {
    Walk w{m, m.dir.empty() ? fs::path(".") : m.dir, out_zip};
    for (const auto& [name, p] : m.outputs) {
        w.products.push_back(p);
        for (const auto& kind : m.patches) w.products.push_back(fs::path(p.string() + "." + kind));
    }
    for (const auto& o : w.products)
        if (out_zip.lexically_normal() == o.lexically_normal())
            throw Error(ErrorKind::usage, "the pack would be written over an output of the mod; name another file", out_zip.string());
    if (m.report && is_below(out_zip, *m.report))
        throw Error(ErrorKind::usage, "the pack would be written inside the mod's report folder; name another place",
                    out_zip.string());
    if (m.preview) {
        std::error_code ec;
        if (!fs::is_regular_file(*m.preview, ec))
            throw Error(ErrorKind::io, "the preview picture the manifest names is not there (field \"preview\")",
                        m.preview->string());
        if (!picture_magic(read_file(*m.preview, 64 << 20)))
            throw Error(ErrorKind::format, "the preview is not a PNG or JPEG picture (field \"preview\")", m.preview->string(), 0);
    }
    w.bases = base_identities(m);
    for (const auto& pointer : detail::path_values(*m.source))
        if (const auto* v = rapidjson::Pointer(pointer.c_str()).Get(m.source->doc()); v && v->IsString())
            w.named.insert((w.root / fs::path(v->GetString())).lexically_normal());
    for (const auto& in : m.inputs) {
        if (!is_below(in.path, w.root)) continue;
        const fs::path rel = in.path.lexically_normal().lexically_relative(w.root.lexically_normal());
        if (std::distance(rel.begin(), rel.end()) > 1) w.base_folders.insert((w.root / *rel.begin()).lexically_normal());
    }
    w.folder(w.root, 1);
    std::sort(w.result.left_out.begin(), w.result.left_out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    for (const auto& b : w.bases)
        if (!b.input->sha1 && !b.input->md5)
            w.result.warnings.push_back(
                "input \"" + b.input->name + "\" declares no sha1 or md5, so apply --bases cannot find a player's copy " +
                "(only --input " + b.input->name + "=PATH): add " +
                (b.sha1 ? "\"sha1\": \"" + *b.sha1 + "\"" : std::string("its \"sha1\"")) + " to the input in " +
                m.file.filename().string());
    const std::string manifest_name = relative_name(m.file, w.root);
    if (manifest_name.empty() || manifest_name.rfind("..", 0) == 0)
        throw Error(ErrorKind::usage, "the manifest is not inside its own folder", m.file.string());
    const Bytes zip = detail::write_zip(w.entries, comment_prefix + manifest_name);
    std::vector<fs::path> inputs;
    for (const auto& in : m.inputs) inputs.push_back(in.path);
    write_file_atomic(out_zip, zip, inputs);
    w.result.zip_bytes = zip.size();
    return w.result;
}

Unpacked unpack_mod(const fs::path& zip, const fs::path& dir) {
    const Bytes bytes = read_file(zip, pack_max_bytes);
    const detail::ZipContents contents = detail::read_zip(bytes, zip.string());
    std::string manifest_name = "mod.json";
    if (contents.comment.rfind(comment_prefix, 0) == 0) manifest_name = contents.comment.substr(comment_prefix.size());
    const auto it = std::find_if(contents.files.begin(), contents.files.end(),
                                 [&](const auto& e) { return e.name == manifest_name; });
    if (it == contents.files.end())
        throw Error(ErrorKind::format,
                    "the pack holds no " + manifest_name + " (a pack made by `modkit manifest pack` names its manifest in "
                    "the zip comment; others need a mod.json at the top)",
                    zip.string(), no_offset, "zip");
    // Diagnostics name the manifest inside the pack: "hero.zip/mod.json:4:12: …".
    const Manifest m = parse_manifest(std::string(it->data.begin(), it->data.end()), zip / manifest_name,
                                      (dir / manifest_name).parent_path());
    std::vector<BaseIdentity> declared;
    for (const auto& in : m.inputs) declared.push_back({&in, std::nullopt, in.sha1});
    for (std::size_t i = 0; i < contents.files.size(); ++i) {
        std::optional<std::string> sha1;
        if (const InputDecl* in = base_of(contents.files[i].data, declared, sha1))
            throw Error(ErrorKind::format,
                        "entry \"" + contents.files[i].name + "\" is the base file of input \"" + in->name +
                            "\" (its declared hashes match): a mod pack must not carry the game; use your own copy of "
                            "the base, and ask the mod's author for a pack made by `modkit manifest pack`, which leaves it out",
                        zip.string(), no_offset, "zip.entry[" + contents.files[i].name + "]");
    }
    std::error_code ec;
    if (!fs::is_directory(dir, ec) || !fs::is_empty(dir, ec))
        throw Error(ErrorKind::usage, "a pack is unpacked into an empty folder", dir.string());
    Unpacked out;
    for (const auto& e : contents.files) {
        const fs::path p = dir / fs::path(e.name);
        fs::create_directories(p.parent_path());
        std::ofstream f(p, std::ios::binary);
        f.write(reinterpret_cast<const char*>(e.data.data()), std::streamsize(e.data.size()));
        if (!f) throw Error(ErrorKind::io, "cannot write the unpacked file", p.string());
        ++out.files;
        out.bytes += e.data.size();
    }
    out.manifest = dir / manifest_name;
    return out;
}

}  // namespace mod::manifest
