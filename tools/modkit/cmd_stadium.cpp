// modkit stadium …: the Pokémon Stadium model archive (BinArchive at ROM 0x920000), its
// PERS-SZP entries and the FRAGMENTs inside them.
#include "cli.hpp"
#include "json.hpp"

#include "libmod/core/file.hpp"
#include "libmod/stadium/archive.hpp"
#include "libmod/stadium/fragment.hpp"
#include "libmod/stadium/model_walk.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <cstdio>
#include <optional>

namespace modkit {
namespace {

namespace fs = std::filesystem;
using namespace mod::stadium;
namespace n64 = mod::n64;

void declare_rom(po::options_description& o, po::positional_options_description& p) {
    o.add_options()("rom", po::value<std::string>(), "ROM image (z64, v64 or n64 byte order)");
    p.add("rom", 1);
}

int stadium_extract(const po::variables_map& vm, const Global& g) {
    fs::path in = required(vm, "rom"), dir = required(vm, "dir");
    auto rom = load_rom(in);
    auto archive = read_archive(rom);
    auto s = extract_archive(rom, archive, dir, g.threads);
    if (g.json) {
        Json j;
        j.begin_object().field("entries", std::uint64_t(s.entries)).field("fragments", std::uint64_t(s.fragments))
            .field("bytes", s.bytes).field("dir", dir.string()).end_object();
    } else {
        std::printf("extracted %zu entries (%zu FRAGMENTs, %ju bytes) to %s\n", s.entries, s.fragments,
                    std::uintmax_t(s.bytes), dir.c_str());
    }
    return 0;
}

int stadium_repack(const po::variables_map& vm, const Global& g) {
    fs::path in = required(vm, "rom"), dir = required(vm, "dir"), out = required(vm, "out");
    const fs::path inputs[] = {in, dir};  // every file of the extraction folder is an input
    mod::ensure_distinct_output(out, inputs);  // before the work, not only before the write
    auto rom = load_rom(in);
    auto archive = read_archive(rom);
    auto replacements = read_extracted(archive, dir);
    RepackOptions opt;
    opt.mode = mod::yay0::parse_mode(vm["mode"].as<std::string>());
    opt.threads = g.threads;
    auto result = [&] {  // the progress line ends before the results are printed
        mod::Progress progress("repacking entries", archive.entries.size(), g.quiet);
        opt.progress = &progress;
        auto r = repack_archive(archive, replacements, opt);
        opt.progress = nullptr;
        return r;
    }();
    apply_archive(rom, result);
    const auto order = rom.order;
    auto image = take_image(std::move(rom));
    mod::write_file_atomic(out, image, inputs);
    std::size_t moved = 0;
    for (const auto& e : result.entries) moved += e.moved;
    if (g.json) {
        Json j;
        j.begin_object().field("changed", std::uint64_t(replacements.size())).field("reencoded", std::uint64_t(result.reencoded))
            .field("moved", std::uint64_t(moved)).field("total_size", result.header.total_size)
            .field("byte_order", n64::to_string(order)).field("out", out.string()).end_object();
    } else {
        std::printf("%zu changed entr%s re-encoded, %zu moved, total size 0x%X; wrote %s (%s)\n", result.reencoded,
                    result.reencoded == 1 ? "y" : "ies", moved, result.header.total_size, out.c_str(),
                    n64::to_string(order));
    }
    return 0;
}

int stadium_verify(const po::variables_map& vm, const Global& g) {
    fs::path in = required(vm, "rom");
    auto rom = load_rom(in);
    auto archive = read_archive(rom);
    auto r = verify_archive(archive, g.threads);
    // The repacked ROM as a whole: the region written back into the image must give the input.
    RepackOptions opt;
    opt.threads = g.threads;
    opt.model_limits = false;
    const bool rom_identical = write_archive(rom, repack_archive(archive, {}, opt)) == mod::read_file(in);
    if (g.json) {
        Json j;
        j.begin_object()
            .field("file", in.string())
            .field("entries", std::uint64_t(r.entries))
            .field("pers_szp", std::uint64_t(r.pers_szp))
            .field("raw_fragments", std::uint64_t(r.raw_fragments))
            .field("presjpeg", std::uint64_t(r.presjpeg))
            .field("raw", std::uint64_t(r.raw))
            .field("fragments", std::uint64_t(r.fragments))
            .field("identity_unchanged", r.identity_unchanged)
            .field("identity_same_content", r.identity_same_content)
            .field("rom_identical", rom_identical)
            .field("nintendo_matches", std::uint64_t(r.nintendo_matches))
            .key("nintendo_mismatches").begin_array();
        for (auto i : r.nintendo_mismatches) j.value(std::uint64_t(i));
        j.end_array().field("crosscheck_ok", std::uint64_t(r.crosscheck_ok)).key("crosscheck_problems").begin_array();
        for (const auto& p : r.crosscheck_problems) j.value(p);
        j.end_array().key("audit").begin_array();
        for (const auto& p : r.audit) j.value(p);
        j.end_array().key("fidelity_notes").begin_array();
        for (const auto& p : r.fidelity_notes) j.value(p);
        j.end_array().field("ok", r.ok() && rom_identical).end_object();
    } else {
        std::printf("%zu entries: %zu PERS-SZP, %zu raw FRAGMENT, %zu PRESJPEG, %zu other raw\n", r.entries, r.pers_szp,
                    r.raw_fragments, r.presjpeg, r.raw);
        std::printf("repack without changes reproduces the archive: %s\n", r.identity_unchanged ? "yes" : "NO");
        std::printf("repack with every entry re-read from its decoded content: %s\n", r.identity_same_content ? "yes" : "NO");
        std::printf("output ROM identical to the input file: %s\n", rom_identical ? "yes" : "NO");
        std::printf("nintendo-mode Yay0 reproduces %zu of %zu PERS-SZP streams byte for byte\n", r.nintendo_matches,
                    r.pers_szp);
        std::printf("relocation cross-check: %zu of %zu FRAGMENTs match their structure walk\n", r.crosscheck_ok,
                    r.fragments);
        for (const auto& p : r.crosscheck_problems) std::printf("  %s\n", p.c_str());
        for (const auto& p : r.audit) std::printf("note: %s\n", p.c_str());
        for (const auto& p : r.fidelity_notes) std::printf("note: %s\n", p.c_str());
    }
    if (!r.ok() || !rom_identical)
        throw mod::Error(mod::ErrorKind::conflict, "repacking without changes did not reproduce the ROM", in.string());
    return 0;
}

int stadium_fragment(const po::variables_map& vm, const Global& g) {
    const std::string action = required(vm, "action");
    if (action != "check") usage_error("unknown fragment action '" + action + "' (expected: check)");
    fs::path in = required(vm, "file");
    auto data = mod::read_file(in);
    Fragment f = parse_fragment(mod::ByteReader(data, mod::Endian::big, in.string(), "fragment"));
    ModelMap m = walk_model(f);
    CrossCheck c = cross_check(f, m);
    const auto skipped = relocs_the_game_skips(f);
    if (g.json) {
        Json j;
        j.begin_object().field("file", in.string()).field("relocations", std::uint64_t(f.relocs.size()))
            .field("pointers_found", std::uint64_t(m.pointers.size())).field("matched", std::uint64_t(c.matched))
            .key("missing").begin_array();
        for (const auto& p : c.missing)
            j.begin_object().field("offset", p.site).field("target", p.target).field("what", p.what).end_object();
        j.end_array().key("unexplained").begin_array();
        for (const auto& e : c.unexplained)
            j.begin_object().field("offset", e.offset()).field("word", f.word(e.offset())).end_object();
        j.end_array().key("getter_problems").begin_array();
        for (const auto& p : c.getter_problems) j.value(p);
        j.end_array().key("skipped_by_the_game").begin_array();
        for (const auto& k : skipped)
            j.begin_object().field("index", std::uint64_t(k.index)).field("entry", k.reloc.raw).field("reason", k.reason).end_object();
        j.end_array().key("notes").begin_array();
        for (const auto& n : m.notes) j.value(n);
        j.end_array().field("ok", c.ok()).end_object();
    } else {
        std::printf("%s: %zu relocations, %zu pointer words found by the structure walk, %zu matched\n", in.c_str(),
                    f.relocs.size(), m.pointers.size(), c.matched);
        for (const auto& p : c.missing)
            std::printf("missing relocation: word at 0x%X holds 0x%08X (%s)\n", p.site, p.target, p.what.c_str());
        for (const auto& e : c.unexplained)
            std::printf("unexplained R_MIPS_32 at 0x%X (word 0x%08X): no structure reaches it\n", e.offset(),
                        f.word(e.offset()));
        for (const auto& p : c.getter_problems) std::printf("getter: %s\n", p.c_str());
        for (const auto& k : skipped) std::printf("reloc[%zu]: %s\n", k.index, k.reason.c_str());
        for (const auto& n : m.notes) std::printf("note: %s\n", n.c_str());
        std::printf("%s\n", c.ok() ? "ok" : "MISMATCH");
    }
    if (!c.ok())
        throw mod::Error(mod::ErrorKind::conflict, "the relocation table does not match the model's pointer words",
                         in.string());
    return 0;
}

// `stadium list` lives in cmd_stadium_list.cpp (it runs in the lean modkit front).
const Registrar stadium_group({"stadium", "Pokémon Stadium model archive, PERS-SZP entries and FRAGMENTs", {
    {"extract", "ROM DIR", "write every entry decoded (FRAGMENTs) plus DIR/index.json",
     [](auto& o, auto& p) {
         declare_rom(o, p);
         o.add_options()("dir", po::value<std::string>(), "output folder");
         p.add("dir", 1);
     },
     stadium_extract},
    {"repack", "ROM DIR OUT [--mode nintendo|best]",
     "rebuild the archive from an extraction folder (changed entries re-encoded, the rest copied)",
     [](auto& o, auto& p) {
         declare_rom(o, p);
         o.add_options()("dir", po::value<std::string>(), "extraction folder")(
             "out", po::value<std::string>(), "output ROM (same byte order as the input)")(
             "mode", po::value<std::string>()->default_value("nintendo"), "Yay0 parse for changed entries");
         p.add("dir", 1).add("out", 1);
     },
     stadium_repack},
    {"verify", "ROM [--json]",
     "decode every entry, prove an unchanged repack gives the same ROM, count exact Yay0 re-encodings",
     declare_rom, stadium_verify},
    {"fragment", "check FILE [--json]", "compare a FRAGMENT's relocation table with its model's pointer words",
     [](auto& o, auto& p) {
         o.add_options()("action", po::value<std::string>(), "check")("file", po::value<std::string>(), "FRAGMENT file");
         p.add("action", 1).add("file", 1);
     },
     stadium_fragment},
}});

}  // namespace
}  // namespace modkit
