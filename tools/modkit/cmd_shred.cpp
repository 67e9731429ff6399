// modkit shred …: Tony Hawk: SHRED skinned meshes (streams, skeletons, PAKs, quartets, edits).
// Formats: doc/formats/shred-stream.md, shred-skeleton.md, shred-pak.md, shred-quartet.md.
#include "cli.hpp"
#include "json.hpp"

#include "libmod/core/file.hpp"
#include "libmod/core/folder.hpp"
#include "libmod/shred/edit.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/shred/pak_extract.hpp"
#include "libmod/shred/preprocess.hpp"
#include "libmod/shred/quartet.hpp"
#include "libmod/shred/scan.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>

namespace modkit {
namespace {

namespace fs = std::filesystem;
namespace sh = mod::shred;

sh::ScanOptions scan_options(const po::variables_map& vm) {
    sh::ScanOptions o;
    if (vm.count("bones")) o.bone_count = vm["bones"].as<std::uint32_t>();
    return o;
}

void declare_file(po::options_description& o, po::positional_options_description& p) {
    o.add_options()("file", po::value<std::string>(), "input file");
    p.add("file", 1);
}

void declare_bones(po::options_description& o) {
    o.add_options()("bones", number<std::uint32_t>(), "validate palettes against a skeleton of N bones");
}

std::string influence_text(const std::array<std::uint32_t, 5>& h) {
    return std::to_string(h[1]) + "/" + std::to_string(h[2]) + "/" + std::to_string(h[3]) + "/" + std::to_string(h[4]);
}

// The box check's words (shred-quartet/1's box against the positions; the seed: always inside).
std::string box_text(const sh::BoxCheck& b) {
    if (b.outside) return std::to_string(b.outside) + " positions OUTSIDE the box at +0x10/+0x1C (shred-quartet/1 disagrees)";
    return b.tight ? "positions inside the box at +0x10/+0x1C (tight)" : "positions inside the box at +0x10/+0x1C (not tight)";
}

void json_box(Json& j, const sh::BoxCheck& b) {
    j.key("box").begin_object().key("min").begin_array();
    auto num = [&j](float v) { std::isfinite(v) ? j.value(double(v)) : j.null(); };
    for (float v : b.min) num(v);
    j.end_array().key("max").begin_array();
    for (float v : b.max) num(v);
    j.end_array().field("positions_outside", b.outside).field("tight", b.tight).end_object();
}

void json_flags(Json& j, const sh::FlagReadings& f) {
    j.key("processed_as").begin_object().field("u8", f.u8).field("u16", f.u16).field("u32", f.u32).end_object();
}

std::string readings_text(const sh::FlagReadings& f) {
    return std::string("u8 ") + (f.u8 ? "1" : "0") + ", u16 " + (f.u16 ? "1" : "0") + ", u32 " + (f.u32 ? "1" : "0");
}

void json_mesh(Json& j, const sh::FoundMesh& m) {
    j.begin_object()
        .field("metadata_offset", m.metadata_offset)
        .field("stream_offset", m.stream_offset)
        .field("stream_size", m.stream_size)
        .field("processed", m.processed);
    json_flags(j, m.processed_as);
    j
        .field("footer_present", m.footer_present)
        .field("valid", m.error.empty());
    if (m.error.empty()) {
        j.field("vertices", m.vertex_count).field("batches", m.batch_count).key("batches_by_influence").begin_array();
        for (int k = 1; k <= 4; ++k) j.value(m.batches_by_influence[k]);
        j.end_array().field("non_finite_normals", m.report.non_finite_normals)
            .field("odd_tangent_signs", m.report.odd_tangent_signs)
            .field("influence_palette_mismatches", m.report.influence_palette_mismatches);
        if (m.box) json_box(j, *m.box);
    } else {
        j.field("error", m.error);
    }
    j.key("format_mask_at").begin_array();
    for (auto o : m.format_mask_at) j.value(o);
    j.end_array().key("vertex_count_at").begin_array();
    for (auto o : m.vertex_count_at) j.value(o);
    j.end_array().end_object();
}

void print_mesh(const sh::FoundMesh& m, std::size_t index, const char* indent) {
    std::printf("%smesh %zu  metadata %s  stream %s  %u bytes%s\n", indent, index, mod::hex(m.metadata_offset).c_str(),
                mod::hex(m.stream_offset).c_str(), m.stream_size,
                m.processed ? "" : ("  (processed flag NOT set; flag at +0xB4 read as " + readings_text(m.processed_as) + ")").c_str());
    if (m.error.empty()) {
        std::printf("%s  %u vertices, %u batches (1/2/3/4 influences: %s)", indent, m.vertex_count, m.batch_count,
                    influence_text(m.batches_by_influence).c_str());
        if (m.report.non_finite_normals) std::printf(", %llu NaN normals (accepted)", (unsigned long long)m.report.non_finite_normals);
        std::printf("\n");
        if (m.report.influence_palette_mismatches)
            std::printf("%s  %llu batches whose influence count is not their used palette slots (influence-palette/1 disagrees; read as stored)\n",
                        indent, (unsigned long long)m.report.influence_palette_mismatches);
        if (m.box) std::printf("%s  %s\n", indent, box_text(*m.box).c_str());
        if (!m.format_mask_at.empty()) {
            std::printf("%s  format mask 0x8007F at +", indent);
            for (std::size_t k = 0; k < m.format_mask_at.size(); ++k)
                std::printf("%s%s", k ? ", +" : "", mod::hex(m.format_mask_at[k]).c_str());
            std::printf("\n");
        }
    } else {
        std::printf("%s  INVALID: %s\n", indent, m.error.c_str());
    }
}

// What the hypotheses the scan checks say over all meshes (reported, never refused).
void print_hypothesis_summary(const std::vector<sh::FoundMesh>& meshes) {
    std::size_t u8 = 0, u16 = 0, u32 = 0, boxed = 0, outside = 0, palette = 0;
    for (const auto& m : meshes) {
        u8 += m.processed_as.u8, u16 += m.processed_as.u16, u32 += m.processed_as.u32;
        if (m.box) (m.box->outside ? outside : boxed) += 1;
        palette += m.report.influence_palette_mismatches != 0;
    }
    if (meshes.empty()) return;
    std::printf("hypotheses (the seed: every stock mesh is processed and inside its box):\n");
    std::printf("  shred-flags/1 (u32 at +0xB4): processed in %zu of %zu meshes (u16 reading %zu, u8 reading %zu)%s\n", u32,
                meshes.size(), u16, u8, u32 == meshes.size() ? "" : "  DISAGREES on this file");
    std::printf("  shred-quartet/1 box at +0x10/+0x1C: %zu meshes inside, %zu outside%s\n", boxed, outside,
                outside ? "  DISAGREES on this file" : "");
    std::printf("  influence-palette/1: %zu meshes with a batch whose count is not its used slots%s\n", palette,
                palette ? "  DISAGREES on this file" : "");
}

// ---- scan ----
int run_scan(const po::variables_map& vm, const Global& g) {
    fs::path in = required(vm, "file");
    auto data = mod::read_file(in);
    auto meshes = sh::scan(data, in.string(), scan_options(vm));
    std::size_t invalid = 0;
    for (const auto& m : meshes) {
        invalid += !m.error.empty();
        if (!m.error.empty()) report_failure(m.error);
    }
    if (g.json) {
        Json j;
        j.begin_object().field("file", in.string()).field("meshes_found", std::uint64_t(meshes.size()))
            .field("invalid", std::uint64_t(invalid)).key("meshes").begin_array();
        for (const auto& m : meshes) json_mesh(j, m);
        j.end_array().end_object();
    } else {
        std::printf("%s: %zu skinned meshes, %zu invalid\n", in.c_str(), meshes.size(), invalid);
        for (std::size_t i = 0; i < meshes.size(); ++i) print_mesh(meshes[i], i, "  ");
        print_hypothesis_summary(meshes);
    }
    return invalid ? 2 : 0;
}

// ---- conformance ----
int run_conformance(const po::variables_map& vm, const Global& g) {
    auto files = required_list(vm, "files");
    constexpr std::size_t nrules = sh::all_ordering_rules.size();
    std::array<std::size_t, nrules> hits{};
    std::size_t streams = 0, none = 0;
    struct Row {
        std::string file;
        std::uint64_t offset;
        sh::ConformanceResult result;
    };
    std::vector<Row> rows;
    for (const auto& f : files) {
        auto data = mod::read_file(f);
        mod::ByteReader whole(data, mod::Endian::big, f);
        for (const auto& m : sh::scan(data, f)) {
            if (!m.error.empty()) continue;
            auto s = sh::decode_stream(whole.sub(m.stream_offset, data.size() - m.stream_offset, "stream"));
            auto r = sh::check_conformance(s);
            ++streams;
            bool any = false;
            for (std::size_t k = 0; k < nrules; ++k) {
                hits[k] += r.reproduces[k];
                any |= r.reproduces[k];
            }
            none += !any;
            rows.push_back({f, m.metadata_offset, r});
        }
    }
    if (g.json) {
        Json j;
        j.begin_object().field("streams", std::uint64_t(streams)).field("reproduced_by_none", std::uint64_t(none))
            .key("rules").begin_array();
        for (std::size_t k = 0; k < nrules; ++k)
            j.begin_object().field("rule", sh::to_string(sh::all_ordering_rules[k])).field("reproduced", std::uint64_t(hits[k]))
                .end_object();
        j.end_array().key("meshes").begin_array();
        for (const auto& r : rows) {
            j.begin_object().field("file", r.file).field("metadata_offset", r.offset).key("reproduced_by").begin_array();
            for (std::size_t k = 0; k < nrules; ++k)
                if (r.result.reproduces[k]) j.value(sh::to_string(sh::all_ordering_rules[k]));
            j.end_array().end_object();
        }
        j.end_array().end_object();
    } else {
        for (const auto& r : rows) {
            std::printf("%s mesh@%s:", r.file.c_str(), mod::hex(r.offset).c_str());
            for (std::size_t k = 0; k < nrules; ++k)
                if (r.result.reproduces[k]) std::printf(" %s", sh::to_string(sh::all_ordering_rules[k]));
                else std::printf(" !%s(@%s)", sh::to_string(sh::all_ordering_rules[k]),
                                 mod::hex(r.result.first_difference[k]).c_str());
            std::printf("\n");
        }
        for (std::size_t k = 0; k < nrules; ++k)
            std::printf("%-12s reproduces %zu of %zu streams\n", sh::to_string(sh::all_ordering_rules[k]), hits[k], streams);
        std::printf("%-12s %zu of %zu streams\n", "no rule", none, streams);
    }
    return 0;
}

// ---- pak ----
// An entry name comes from the PAK: a name that would leave the folder is bad input (format,
// exit 2), not a usage error.
std::string safe_relative(const std::string& name, const std::string& pak_file) {
    std::string p = name;
    for (auto& c : p)
        if (c == '\\') c = '/';
    fs::path rel(p);
    if (p.empty() || rel.is_absolute())
        throw mod::Error(mod::ErrorKind::format, "entry name '" + mod::escape_controls(name) + "' is not a safe relative path",
                         pak_file);
    for (const auto& part : rel)
        if (part == "..")
            throw mod::Error(mod::ErrorKind::format, "entry name '" + mod::escape_controls(name) + "' escapes the folder",
                             pak_file);
    return p;
}

int pak_list(const std::vector<std::string>& args, const Global& g) {
    if (args.size() != 1) usage_error("usage: modkit shred pak list PAK [--json]");
    auto pak = sh::read_pak(mod::read_file(args[0]), args[0]);
    auto quartets = sh::find_quartets(pak);
    std::vector<std::vector<sh::FoundMesh>> meshes(pak.entries.size());
    for (std::size_t i = 0; i < pak.entries.size(); ++i) meshes[i] = sh::scan(pak.data(i), pak.entries[i].name);
    if (g.json) {
        Json j;
        j.begin_object().field("file", args[0]).field("unknown_a", unsigned(pak.unknown_a))
            .field("unknown_b", unsigned(pak.unknown_b)).field("data_alignment", sh::pak_data_alignment(pak))
            .key("entries").begin_array();
        for (std::size_t i = 0; i < pak.entries.size(); ++i) {
            const auto& e = pak.entries[i];
            j.begin_object().field("index", std::uint64_t(i)).field("name", e.name).field("hash", e.hash)
                .field("unknown1", e.unknown1).field("unknown2", e.unknown2).field("offset", e.data_offset)
                .field("size", e.size).key("meshes").begin_array();
            for (const auto& m : meshes[i]) json_mesh(j, m);
            j.end_array().end_object();
        }
        j.end_array().key("quartets").begin_array();
        for (const auto& q : quartets)
            j.begin_object().field("base", q.base).field("meta", pak.entries[q.meta].name).field("mmp", pak.entries[q.mmp].name)
                .field("mgp", pak.entries[q.mgp].name).field("scp", pak.entries[q.scp].name).end_object();
        j.end_array().end_object();
    } else {
        std::printf("%s: %zu entries, %zu quartets (header words %u %u, data alignment %u)\n", args[0].c_str(),
                    pak.entries.size(), quartets.size(), pak.unknown_a, pak.unknown_b, sh::pak_data_alignment(pak));
        for (std::size_t i = 0; i < pak.entries.size(); ++i) {
            const auto& e = pak.entries[i];
            std::printf("  %4zu %-32s hash %08X  unk %08X %08X  at %s  %u bytes", i, e.name.c_str(), e.hash, e.unknown1,
                        e.unknown2, mod::hex(e.data_offset).c_str(), e.size);
            if (!meshes[i].empty()) {
                std::uint64_t v = 0, b = 0;
                for (const auto& m : meshes[i]) v += m.vertex_count, b += m.batch_count;
                std::printf("  [%zu skinned meshes, %llu vertices, %llu batches]", meshes[i].size(), (unsigned long long)v,
                            (unsigned long long)b);
            }
            std::printf("\n");
        }
        for (const auto& q : quartets) std::printf("  quartet %s: %s + mmp/mgp/scp\n", q.base.c_str(), pak.entries[q.meta].name.c_str());
    }
    return 0;
}

int pak_extract(const std::vector<std::string>& args, const Global& g) {
    if (args.size() != 2) usage_error("usage: modkit shred pak extract PAK DIR");
    fs::path in = args[0], dir = args[1];
    auto pak = sh::read_pak(mod::read_file(in), in.string());
    // Every entry gets a file of its own (a repeated name included) and index.json maps the
    // files back to the entries, so an unedited extract -> repack gives the PAK back.
    // The whole plan (every name, and the disk) is checked before the first file is written.
    const auto files = sh::pak_extract_files(pak);
    std::vector<mod::FolderFile> plan;
    for (std::size_t i = 0; i < files.size(); ++i) plan.push_back({files[i], mod::index_path("pak.entries", i)});
    plan.push_back({sh::pak_index_file_name, "index"});
    const std::string index = sh::pak_extract_index_json(pak, files);
    mod::write_folder(dir, plan, [&](std::size_t i) {
        return i < files.size() ? pak.data(i) : mod::ByteView(reinterpret_cast<const std::uint8_t*>(index.data()), index.size());
    }, std::span<const fs::path>(&in, 1), in.string());
    if (g.json) {
        Json j;
        j.begin_object().field("extracted", std::uint64_t(pak.entries.size())).field("dir", dir.string()).end_object();
    } else {
        std::printf("extracted %zu entries to %s\n", pak.entries.size(), dir.c_str());
    }
    return 0;
}

// The file of each entry in an extraction folder: as DIR/index.json says, or by name for a
// folder extracted before there was an index.
std::vector<std::string> extracted_files(const sh::Pak& pak, const fs::path& dir) {
    const fs::path index = dir / sh::pak_index_file_name;
    if (mod::exists_in_folder(dir, sh::pak_index_file_name)) {
        const auto bytes = mod::read_file_in_folder(dir, sh::pak_index_file_name);
        try {
            return sh::read_pak_extract_index(
                std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), pak, index.string());
        } catch (const mod::Error& e) {
            // Without an index, a PAK entry of that name was extracted there.
            if (!(e.kind() == mod::ErrorKind::format && e.path() == "index" && pak.find(sh::pak_index_file_name)))
                throw;
        }
    }
    std::vector<std::string> files;
    for (const auto& e : pak.entries) files.push_back(safe_relative(e.name, pak.file));
    return files;
}

int pak_repack(const std::vector<std::string>& args, const Global& g) {
    if (args.size() != 3) usage_error("usage: modkit shred pak repack ORIGINAL.pak DIR OUT.pak");
    fs::path in = args[0], dir = args[1], out = args[2];
    auto pak = sh::read_pak(mod::read_file(in), in.string());
    const auto files = extracted_files(pak, dir);
    std::vector<std::optional<mod::Bytes>> repl(pak.entries.size());
    std::size_t changed = 0;
    for (std::size_t i = 0; i < pak.entries.size(); ++i) {
        if (!mod::exists_in_folder(dir, files[i])) continue;
        auto data = mod::read_file_in_folder(dir, files[i]);
        auto old = pak.data(i);
        if (data.size() != old.size() || !std::equal(old.begin(), old.end(), data.begin())) ++changed;
        repl[i] = std::move(data);
    }
    auto bytes = sh::repack_pak(pak, repl);
    const fs::path inputs[] = {in, dir};  // every file of the extraction folder is an input
    mod::write_file_atomic(out, bytes, inputs);
    if (g.json) {
        Json j;
        j.begin_object().field("entries", std::uint64_t(pak.entries.size())).field("changed", std::uint64_t(changed))
            .field("bytes", std::uint64_t(bytes.size())).end_object();
    } else {
        std::printf("%s: %zu entries, %zu changed, %zu bytes\n", out.c_str(), pak.entries.size(), changed, bytes.size());
    }
    return 0;
}

int run_pak(const po::variables_map& vm, const Global& g) {
    std::string action = required(vm, "action");
    std::vector<std::string> args = vm.count("args") ? vm["args"].as<std::vector<std::string>>() : std::vector<std::string>{};
    if (action == "list") return pak_list(args, g);
    if (action == "extract") return pak_extract(args, g);
    if (action == "repack") return pak_repack(args, g);
    usage_error("unknown pak action '" + action + "' (list, extract or repack)");
}

// ---- show ----
int run_show(const po::variables_map& vm, const Global& g) {
    fs::path in = required(vm, "file");
    auto pak = sh::read_pak(mod::read_file(in), in.string());
    auto quartets = sh::find_quartets(pak);
    struct Shown {
        const sh::QuartetEntries* q;
        std::optional<sh::QuartetModel> model;
        std::string error;
    };
    std::vector<Shown> shown;
    std::size_t bad = 0;
    for (const auto& q : quartets) {
        Shown s{&q, std::nullopt, {}};
        if (sh::is_static_quartet(pak.data(q.meta))) {
            s.error = "not skinned";  // outside the hypothesis, not a failure
            shown.push_back(std::move(s));
            continue;
        }
        try {
            s.model = sh::read_quartet(sh::quartet_files(pak, q), in.string() + ":" + q.base);
        } catch (const mod::Error& e) {
            s.error = e.what();
            report_failure("quartet '" + q.base + "' does not fit: " + s.error);
            ++bad;
        }
        shown.push_back(std::move(s));
    }
    if (g.json) {
        Json j;
        j.begin_object().field("file", in.string()).field("hypothesis", sh::quartet_v1::name).key("quartets").begin_array();
        for (const auto& s : shown) {
            j.begin_object().field("base", s.q->base).field("meta", pak.entries[s.q->meta].name);
            if (s.error == "not skinned") {
                j.field("skinned", false).end_object();
                continue;
            }
            j.field("skinned", true).field("valid", s.error.empty());
            if (!s.error.empty()) {
                j.field("error", s.error);
            } else {
                const auto& m = *s.model;
                j.key("skeleton").begin_object().field("bones", std::uint64_t(m.skeleton.bones.size())).key("names").begin_array();
                for (const auto& b : m.skeleton.bones) j.value(b.name);
                j.end_array().end_object().key("meshes").begin_array();
                for (const auto& qm : m.meshes) {
                    sh::StreamReport rep;
                    sh::validate_stream(qm.stream, {}, &rep);
                    j.begin_object().field("offset", qm.offset).field("vertices", std::uint64_t(qm.stream.vertices.size()))
                        .field("batches", std::uint64_t(qm.stream.batches.size()))
                        .field("triangles", std::uint64_t(qm.triangles.size()))
                        .field("non_finite_normals", rep.non_finite_normals)
                        .field("influence_palette_mismatches", rep.influence_palette_mismatches)
                        .field("processed", sh::processed_readings(qm.head.data() + sh::metadata_field::flags).u32);
                    json_flags(j, sh::processed_readings(qm.head.data() + sh::metadata_field::flags));
                    json_box(j, sh::check_box(qm.head.data(), qm.stream));
                    j.key("batches_by_influence").begin_array();
                    auto h = qm.stream.batches_by_influence();
                    for (int k = 1; k <= 4; ++k) j.value(h[k]);
                    j.end_array().end_object();
                }
                j.end_array();
            }
            j.end_object();
        }
        j.end_array().end_object();
    } else {
        std::printf("%s: %zu quartets (hypothesis %s)\n", in.c_str(), quartets.size(), sh::quartet_v1::name);
        for (const auto& s : shown) {
            std::printf("  quartet %s (%s)\n", s.q->base.c_str(), pak.entries[s.q->meta].name.c_str());
            if (s.error == "not skinned") {
                std::printf("    not skinned: every record has 0xFFFFFFFF at +0x9C (static meshes are outside %s; kept verbatim)\n",
                            sh::quartet_v1::name);
                continue;
            }
            if (!s.error.empty()) {
                std::printf("    does not fit: %s\n", s.error.c_str());
                continue;
            }
            const auto& m = *s.model;
            std::printf("    skeleton: %zu bones (%s, %s, ...)\n", m.skeleton.bones.size(), m.skeleton.bones[0].name.c_str(),
                        m.skeleton.bones.size() > 1 ? m.skeleton.bones[1].name.c_str() : "-");
            for (std::size_t i = 0; i < m.meshes.size(); ++i) {
                const auto& qm = m.meshes[i];
                sh::StreamReport rep;
                sh::validate_stream(qm.stream, {}, &rep);
                std::printf("    mesh %zu at %s: %zu vertices, %zu triangles, %zu batches (1/2/3/4: %s)%s\n", i,
                            mod::hex(qm.offset).c_str(), qm.stream.vertices.size(), qm.triangles.size(),
                            qm.stream.batches.size(), influence_text(qm.stream.batches_by_influence()).c_str(),
                            rep.non_finite_normals ? (", " + std::to_string(rep.non_finite_normals) + " NaN normals").c_str() : "");
                std::printf("      %s\n", box_text(sh::check_box(qm.head.data(), qm.stream)).c_str());
                const auto flags = sh::processed_readings(qm.head.data() + sh::metadata_field::flags);
                if (!flags.u32)
                    std::printf("      processed flag NOT set (flag at +0xB4 read as %s)\n", readings_text(flags).c_str());
                if (rep.influence_palette_mismatches)
                    std::printf("      %llu batches whose influence count is not their used palette slots (influence-palette/1 disagrees)\n",
                                (unsigned long long)rep.influence_palette_mismatches);
            }
        }
    }
    return bad ? 2 : 0;
}

// ---- edit ----
int run_edit(const po::variables_map& vm, const Global& g) {
    fs::path in = required(vm, "in"), out = required(vm, "out");
    fs::path changes = required(vm, "changes");
    auto text = mod::read_file(changes);
    auto edits = sh::parse_edit_csv(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()), changes.string());
    auto data = mod::read_file(in);
    sh::EditReport rep;
    auto edited = sh::apply_edits(data, edits, in.string(), scan_options(vm), &rep);
    fs::path inputs[] = {in, changes};
    mod::write_file_atomic(out, edited, inputs);
    if (g.json) {
        Json j;
        j.begin_object().field("meshes_found", std::uint64_t(rep.meshes_found))
            .field("vertices_changed", std::uint64_t(rep.vertices_changed))
            .field("bytes_changed", std::uint64_t(rep.bytes_changed)).end_object();
    } else {
        std::printf("%s: %zu vertices changed (%zu bytes) in %zu meshes found\n", out.c_str(), rep.vertices_changed,
                    rep.bytes_changed, rep.meshes_found);
    }
    return 0;
}

const Registrar shred_group({"shred", "Tony Hawk: SHRED skinned meshes, skeletons, PAKs and quartets", {
    {"pak", "list PAK [--json] | extract PAK DIR | repack ORIGINAL.pak DIR OUT.pak",
     "RIDE-layout PAK: list entries/quartets/meshes, extract entries, repack with replaced files",
     [](auto& o, auto& p) {
         o.add_options()("action", po::value<std::string>(), "list, extract or repack")
                        ("args", po::value<std::vector<std::string>>(), "files");
         p.add("action", 1).add("args", -1);
     },
     run_pak},
    {"show", "PAK [--json]", "quartets, skeletons and meshes under the shred-quartet/1 hypothesis",
     declare_file, run_show},
    {"scan", "FILE [--bones N] [--json]", "find and validate every skinned mesh in any file",
     [](auto& o, auto& p) { declare_file(o, p); declare_bones(o); }, run_scan},
    {"conformance", "FILES... [--json]", "which preprocessor ordering rule reproduces each stored stream",
     [](auto& o, auto& p) {
         o.add_options()("files", po::value<std::vector<std::string>>(), "input files");
         p.add("files", -1);
     },
     run_conformance},
    {"edit", "IN OUT --changes CHANGES.csv [--bones N]",
     "same-topology edit in place (CSV: mesh,vertex,field,values; see doc/formats/shred-stream.md)",
     [](auto& o, auto& p) {
         o.add_options()("in", po::value<std::string>(), "input file")("out", po::value<std::string>(), "output file")
                        ("changes", po::value<std::string>(), "CSV of per-vertex changes");
         declare_bones(o);
         p.add("in", 1).add("out", 1);
     },
     run_edit},
}});

}  // namespace
}  // namespace modkit
