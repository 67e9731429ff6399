// The report page's models: the Stadium model an edit changes, the SHRED mesh of mesh.replace,
// the TotemTech SKIN of skin.reweight, before and after: front and side pictures from
// mod::render at one common scale, bounding boxes with their sizes, counts and the histogram
// of influences per vertex.
#include "report_page_detail.hpp"
#include "report_page_viewer.hpp"

#include "libmod/image/colour.hpp"
#include "libmod/render/render.hpp"
#include "libmod/scene/export.hpp"
#include "libmod/shred/import.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/scene_bridge.hpp"
#include "libmod/totem/verify.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace mod::manifest::detail::page {

namespace {

// Background of the model pictures (also what a screenshot test looks for).
constexpr image::Rgba8 preview_background{40, 44, 52, 255};

struct Side {
    std::optional<scene::Scene> scene;
    std::string why;  // when there is no scene
};

using SceneOf = std::function<scene::Scene(const Bytes& bytes, const std::string& path)>;

Side load_side(Files& files, const std::string& path, const SceneOf& make) {
    Side s;
    if (path.empty()) {
        s.why = "the report names no such file";
        return s;
    }
    const auto bytes = files.get(path, &s.why);
    if (!bytes) return s;
    try {
        s.scene = make(*bytes, path);
    } catch (const std::exception& e) {
        s.why = e.what();
    }
    return s;
}

SceneOf stadium_scene(Files& files, std::size_t index) {
    return [&files, index](const Bytes&, const std::string& path) {
        std::string why;
        const auto m = stadium_model(files, path, index, &why);
        if (!m) throw Error(ErrorKind::format, why);
        scene::Scene sc = stadium::model_scene(*m, "model" + std::to_string(index));
        // Its skeletal animations, for the 3D view's play button (the pictures are the bind
        // pose; texture animations would add mesh copies, so they are left out).
        try {
            stadium::ModelAnimations anims = stadium::read_animations(*m);
            anims.aux.clear();
            stadium::add_animations(sc, *m, anims);
        } catch (const std::exception& e) {
            sc.warnings.push_back(std::string("animations not shown: ") + e.what());
        }
        return sc;
    };
}

SceneOf shred_scene(const std::string& quartet, std::size_t mesh) {
    return [quartet, mesh](const Bytes& bytes, const std::string& path) {
        const shred::QuartetModel q = shred::read_pak_quartet(shred::read_pak(bytes, path), quartet);
        return shred::quartet_to_scene(q, mesh);
    };
}

// The report's TotemTech name table (the first "names" input that reads and parses), so that
// groups and bones are labelled as `totem export` labels them; an empty table (IDs as hashes)
// when there is none.
std::shared_ptr<const totem::NameTable> report_names(Files& files) {
    for (const auto& path : files.names_inputs())
        if (const auto bytes = files.get(path)) {
            try {
                return std::make_shared<const totem::NameTable>(
                    totem::NameTable::parse(ByteReader(*bytes, Endian::little, path, "names")));
            } catch (const Error&) {
            }
        }
    return std::make_shared<const totem::NameTable>();
}

SceneOf totem_scene(const std::string& skin_label, std::shared_ptr<const totem::NameTable> table) {
    return [skin_label, table](const Bytes& bytes, const std::string& path) {
        const auto order = totem::detect_byte_order(bytes, totem::platform_from_path(path));
        const ByteReader dgc(bytes, order.endian, path, "dgc");
        const totem::Archive a = totem::decode_archive(dgc);
        const totem::NameTable& names = *table;  // labels only; the report names records by its own text
        const auto index = totem::find_record_by_text(a, names, skin_label);
        if (!index) throw Error(ErrorKind::format, "no SKIN " + skin_label + " in " + path);
        const totem::Skin skin = totem::decode_skin(totem::payload_reader(dgc, a, *index));
        std::vector<std::pair<std::int32_t, totem::Mesh>> meshes;
        for (auto id : skin.mesh_ids) {
            const auto m = totem::find_record(a, id);
            if (m && totem::record_kind(a.records[*m]) == totem::RecordKind::mesh)
                meshes.emplace_back(id, totem::decode_mesh(totem::payload_reader(dgc, a, *m)));
        }
        return totem::skin_to_scene(skin, meshes, names);
    };
}

// The replaced MESHes of a rigid TotemTech character (no SKIN moves them): a scene of MESHes
// alone (skin_to_scene of a SKIN with no sections listing them).
SceneOf totem_meshes_scene(const std::vector<std::string>& mesh_labels) {
    return [mesh_labels](const Bytes& bytes, const std::string& path) {
        const auto order = totem::detect_byte_order(bytes, totem::platform_from_path(path));
        const ByteReader dgc(bytes, order.endian, path, "dgc");
        const totem::Archive a = totem::decode_archive(dgc);
        const totem::NameTable names;
        totem::Skin none;
        std::vector<std::pair<std::int32_t, totem::Mesh>> meshes;
        for (const auto& label : mesh_labels) {
            const auto m = totem::find_record_by_text(a, names, label);
            if (!m || totem::record_kind(a.records[*m]) != totem::RecordKind::mesh)
                throw Error(ErrorKind::format, "no MESH " + label + " in " + path);
            none.mesh_ids.push_back(a.records[*m].name_id);
            meshes.emplace_back(a.records[*m].name_id, totem::decode_mesh(totem::payload_reader(dgc, a, *m)));
        }
        return totem::skin_to_scene(none, meshes, names);
    };
}

struct Counts {
    std::uint64_t vertices = 0, triangles = 0;
    std::vector<std::uint64_t> by_influence;  // [k] = vertices with k + 1 influences (0 influences not counted)
    std::uint64_t unweighted = 0;
};

Counts counts_of(const scene::Scene& sc) {
    Counts c;
    for (const auto& m : sc.meshes) {
        c.vertices += m.vertex_count();
        c.triangles += m.triangles.size();
        for (std::size_t v = 0; v < m.vertex_count(); ++v) {
            std::size_t n = 0;
            if (!m.skin.empty() && v < m.skin.size()) n = m.skin[v].count;
            else if (v < m.influences.size())
                for (const auto& i : m.influences[v]) n += i.weight > 0;
            if (n == 0) {
                ++c.unweighted;
                continue;
            }
            if (c.by_influence.size() < n) c.by_influence.resize(n);
            ++c.by_influence[n - 1];
        }
    }
    return c;
}

std::string num3(const scene::Vec3& v) {
    char b[128];
    std::snprintf(b, sizeof b, "(%.3f, %.3f, %.3f)", double(v[0]), double(v[1]), double(v[2]));
    return b;
}

void box_table(Section& s, const std::optional<render::Box>& before, const std::optional<render::Box>& after) {
    s.html += "<table><tr><th>bounding box</th><th>min</th><th>max</th><th>size (x, y, z)</th></tr>\n";
    for (const auto& [name, box] : {std::pair{"before", &before}, std::pair{"after", &after}}) {
        if (!*box || (*box)->empty) {
            s.html += std::string("<tr><th>") + name + "</th><td colspan=\"3\" class=\"note\">none</td></tr>\n";
            continue;
        }
        s.html += std::string("<tr><th>") + name + "</th><td class=\"mono\">" + num3((*box)->min) + "</td><td class=\"mono\">" +
                  num3((*box)->max) + "</td><td class=\"mono\">" + num3((*box)->size()) + "</td></tr>\n";
    }
    s.html += "</table>\n";
    if (before && after && !before->empty && !after->empty) {
        const auto b = before->size(), a = after->size();
        const double eb = std::max({b[0], b[1], b[2]}), ea = std::max({a[0], a[1], a[2]});
        if (eb > 0 && ea > 0) {
            const double ratio = ea / eb;
            const bool odd = ratio > 4 || ratio < 0.25;
            s.html += std::string("<p") + (odd ? " class=\"edit-warn\"" : "") + ">largest extent after / before: " +
                      fixed(ratio, 3) + "×" + (odd ? " — check the units and scale of the source" : "") + "</p>\n";
        }
    }
}

void histogram_rows(std::string& html, const std::string& label, const std::vector<std::uint64_t>& counts) {
    std::uint64_t total = 0;
    for (auto c : counts) total += c;
    html += "<tr><th>" + esc(label) + "</th>";
    for (std::size_t k = 0; k < 4; ++k) {
        const std::uint64_t c = k < counts.size() ? counts[k] : 0;
        const int bar = total ? int(std::lround(60.0 * double(c) / double(total))) : 0;
        html += "<td class=\"num\">" + std::to_string(c) + " <span class=\"legend\" style=\"width:" + std::to_string(bar) +
                "px;background:#4a7bd0\"></span></td>";
    }
    std::uint64_t more = 0;
    for (std::size_t k = 4; k < counts.size(); ++k) more += counts[k];
    html += "<td class=\"num\">" + std::to_string(more) + "</td></tr>\n";
}

std::vector<std::uint64_t> list_of(const Json* a) {
    std::vector<std::uint64_t> out;
    if (a && a->IsArray())
        for (const auto& v : a->GetArray()) out.push_back(v.IsUint64() ? v.GetUint64() : 0);
    return out;
}

void counts_tables(Section& s, const Json& result, const std::string& op, const Side& before, const Side& after) {
    const Counts cb = before.scene ? counts_of(*before.scene) : Counts{}, ca = after.scene ? counts_of(*after.scene) : Counts{};
    const Json* rb = member(result, "before");
    const Json* ra = member(result, "after");
    const bool shred = op == "mesh.replace" && rb && ra;
    s.html += "<table><tr><th></th><th>vertices</th><th>triangles</th>" + std::string(shred ? "<th>batches</th>" : "") +
              "</tr>\n";
    auto row = [&](const char* name, const Counts& c, const Json* r, bool have) {
        s.html += std::string("<tr><th>") + name + "</th>";
        if (shred) {
            for (const char* k : {"vertices", "triangles", "batches"})
                s.html += "<td class=\"num\">" + std::to_string(u64_of(*r, k).value_or(0)) + "</td>";
        } else if (have) {
            s.html += "<td class=\"num\">" + std::to_string(c.vertices) + "</td><td class=\"num\">" + std::to_string(c.triangles) + "</td>";
        } else {
            s.html += "<td colspan=\"2\" class=\"note\">unknown</td>";
        }
        s.html += "</tr>\n";
    };
    row("before", cb, rb, before.scene.has_value());
    row("after", ca, ra, after.scene.has_value());
    s.html += "</table>\n<table><tr><th>vertices with … influences</th><th>1</th><th>2</th><th>3</th><th>4</th><th>more</th></tr>\n";
    if (shred) {
        histogram_rows(s.html, "before", list_of(member(*rb, "vertices_by_influence")));
        histogram_rows(s.html, "after", list_of(member(*ra, "vertices_by_influence")));
        if (const Json* src = member(result, "source_influences")) {
            auto positive = list_of(member(*src, "positive_influences"));
            auto limited = list_of(member(*src, "after_limit"));
            // These count from 0 influences; the table starts at 1.
            if (!positive.empty()) positive.erase(positive.begin());
            if (!limited.empty()) limited.erase(limited.begin());
            histogram_rows(s.html, "source (positive weights)", positive);
            histogram_rows(s.html, "source after the 4-influence limit", limited);
        }
    } else {
        if (before.scene) histogram_rows(s.html, "before", cb.by_influence);
        if (after.scene) histogram_rows(s.html, "after", ca.by_influence);
    }
    s.html += "</table>\n";
    if (cb.unweighted || ca.unweighted)
        note(s, "vertices without influence: before " + std::to_string(cb.unweighted) + ", after " + std::to_string(ca.unweighted));
}

// The picture of one side: front and side views at the common scale.
std::string pictures(const scene::Scene& sc, const render::Box& fit, unsigned size, const std::string& label) {
    render::RenderOptions o;
    o.width = o.height = std::clamp(size, 16u, 1024u);
    o.background = preview_background;
    o.fit = fit;
    const image::RgbaImage pic = render::render_front_side(sc, o, 8);
    // A view with nothing drawn says why (flat geometry seen edge-on draws no pixel).
    std::string empty;
    for (const auto& [name, x0] : {std::pair{"front", 0u}, std::pair{"side", o.width + 8}}) {
        bool blank = true;
        for (std::uint32_t y = 0; blank && y < o.height; ++y)
            for (std::uint32_t x = x0; blank && x < x0 + o.width && x < pic.width; ++x)
                blank = pic.at(std::size_t(y) * pic.width + x) == preview_background;
        if (blank) empty += std::string(empty.empty() ? " (" : ", ") + name + " view empty: no triangle has area seen from there, e.g. flat parts seen edge-on";
    }
    if (!empty.empty()) empty += ")";
    return "<figure class=\"preview\">" + img(pic, label + " (front, side)") + "<figcaption>" + esc(label) +
           ": front | side" + empty + "</figcaption></figure>\n";
}

// The longest 1, 2 or 5 × 10^k not above `at_most` (> 0 and finite).
double round_length(double at_most) {
    double step = std::pow(10.0, std::floor(std::log10(at_most)));
    for (double m : {5.0, 2.0, 1.0})
        if (m * step <= at_most) return m * step;
    return step / 2;  // log10 rounding at a power of ten
}

std::string length_text(double units) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", units);
    return b;
}

// A size bar for pictures drawn with `fit` at size × size per view (issue 29 item 6): a round
// length in model units, at most 40 % of a view wide, once when the front and side views share
// their scale and once per view otherwise. Empty when the box draws at no scale.
std::string size_bar(const render::Box& fit, unsigned size) {
    const std::uint32_t side = std::clamp(size, 16u, 1024u);
    const double front = render::pixels_per_unit(fit, render::View::front, side, side);
    const double profile = render::pixels_per_unit(fit, render::View::side, side, side);
    auto bar = [&](double ppu, const std::string& which) -> std::string {
        if (!(ppu > 0) || !std::isfinite(ppu)) return {};
        const double units = round_length(0.4 * side / ppu);
        const long px = std::max(1L, std::lround(units * ppu));
        return "<span class=\"size-bar\" style=\"width:" + std::to_string(px) + "px\" data-units=\"" + length_text(units) +
               "\" data-px-per-unit=\"" + fixed(ppu, 6) + "\"></span> " + length_text(units) + (units == 1 ? " model unit" : " model units") + which;
    };
    std::string a = bar(front, profile == front ? " (front and side)" : " (front)");
    if (a.empty()) return {};
    if (profile != front) {
        const std::string b = bar(profile, " (side)");
        if (!b.empty()) a += " &middot; " + b;
    }
    return "<p class=\"size-bars\">Size: " + a + ", the same in the before and after pictures.</p>\n";
}

// The bone of each vertex's largest weight, by name ("" for a vertex without weights).
std::vector<std::vector<std::string>> dominant_bones(const scene::Scene& sc) {
    std::vector<std::vector<std::string>> out;
    for (const auto& m : sc.meshes) {
        auto& names = out.emplace_back(m.vertex_count());
        for (std::size_t v = 0; v < m.vertex_count(); ++v) {
            std::optional<std::uint32_t> bone;
            if (v < m.skin.size() && m.skin[v].count) bone = m.skin[v].bones[0];
            else if (v < m.influences.size()) {
                float best = 0;
                for (const auto& i : m.influences[v])
                    if (i.weight > best) best = i.weight, bone = i.bone;
            }
            if (bone) names[v] = *bone < sc.skeleton.bones.size() ? sc.skeleton.bones[*bone].name : "bone " + std::to_string(*bone);
        }
    }
    return out;
}

// The colours of the largest-weight pictures (issue 29 item 6): one per bone name, shared by the
// before and after pictures so that a leg keeps its colour; the bones that are largest on the
// most vertices (over both) take the 12 distinct colours, the rest share "other bones".
struct WeightLegend {
    struct Entry {
        std::string bone;
        image::Rgba8 colour;
        std::size_t before = 0, after = 0;  // vertices where it is the largest weight
    };
    std::vector<Entry> entries;  // by vertex count, then name
    std::size_t other_before = 0, other_after = 0, none_before = 0, none_after = 0;
};

constexpr image::Rgba8 legend_colours[] = {{230, 25, 75, 255},   {60, 180, 75, 255},  {255, 225, 25, 255},
                                          {0, 130, 200, 255},   {245, 130, 48, 255}, {145, 30, 180, 255},
                                          {70, 240, 240, 255},  {240, 50, 230, 255}, {210, 245, 60, 255},
                                          {250, 190, 212, 255}, {0, 128, 128, 255},  {170, 110, 40, 255}};
constexpr image::Rgba8 other_colour{70, 70, 70, 255}, none_colour{128, 128, 128, 255};

WeightLegend weight_legend(const scene::Scene* before, const scene::Scene* after) {
    std::map<std::string, std::pair<std::size_t, std::size_t>> counts;
    WeightLegend l;
    for (int side = 0; side < 2; ++side) {
        const scene::Scene* sc = side ? after : before;
        if (!sc) continue;
        for (const auto& mesh : dominant_bones(*sc))
            for (const auto& name : mesh) {
                if (name.empty()) ++(side ? l.none_after : l.none_before);
                else ++(side ? counts[name].second : counts[name].first);
            }
    }
    for (const auto& [name, c] : counts) l.entries.push_back({name, other_colour, c.first, c.second});
    std::stable_sort(l.entries.begin(), l.entries.end(), [](const auto& x, const auto& y) {
        return x.before + x.after > y.before + y.after;
    });
    for (std::size_t i = 0; i < l.entries.size(); ++i) {
        if (i < std::size(legend_colours)) {
            l.entries[i].colour = legend_colours[i];
        } else {
            l.other_before += l.entries[i].before;
            l.other_after += l.entries[i].after;
        }
    }
    if (l.entries.size() > std::size(legend_colours)) l.entries.resize(std::size(legend_colours));
    return l;
}

// The scene with every vertex coloured by the bone of its largest weight (legend colours; dark
// grey: other bones; grey: none), unlit and untextured: what a reweight or a new mesh's skinning
// did, at a glance.
scene::Scene weight_view(scene::Scene sc, const WeightLegend& legend) {
    auto linear = [](image::Rgba8 c) {
        return scene::Vec4{float(image::srgb8_to_linear(c.r)), float(image::srgb8_to_linear(c.g)),
                           float(image::srgb8_to_linear(c.b)), 1.0f};
    };
    const auto bones = dominant_bones(sc);
    std::size_t materials = sc.materials.size();
    for (std::size_t mi = 0; mi < sc.meshes.size(); ++mi) {
        auto& m = sc.meshes[mi];
        materials = std::max<std::size_t>(materials, std::size_t(m.material) + 1);
        m.colours.assign(m.vertex_count(), linear(none_colour));
        for (std::size_t v = 0; v < m.vertex_count(); ++v) {
            const std::string& name = bones[mi][v];
            if (name.empty()) continue;
            image::Rgba8 c = other_colour;
            for (const auto& e : legend.entries)
                if (e.bone == name) c = e.colour;
            m.colours[v] = linear(c);
        }
    }
    scene::MaterialInfo flat;
    flat.unlit = true;
    sc.material_info.assign(materials, flat);
    return sc;
}

std::string weight_pictures(const scene::Scene& sc, const render::Box& fit, unsigned size, const std::string& label,
                            const WeightLegend& legend) {
    render::RenderOptions o;
    o.width = o.height = std::clamp(size, 16u, 1024u);
    o.background = preview_background;
    o.fit = fit;
    o.textured = false;
    const image::RgbaImage pic = render::render_front_side(weight_view(sc, legend), o, 8);
    return "<figure class=\"preview\">" + img(pic, label + " weights (front, side)") + "<figcaption>" + esc(label) +
           ": the bone of each vertex's largest weight</figcaption></figure>\n";
}

std::string hex_colour(image::Rgba8 c) {
    char b[8];
    std::snprintf(b, sizeof b, "#%02X%02X%02X", c.r, c.g, c.b);
    return b;
}

// The legend under the largest-weight pictures: each colour, its bone and on how many vertices
// it is the largest weight before and after.
std::string legend_html(const WeightLegend& l, bool before, bool after) {
    std::string h = "<table class=\"bone-legend\"><tr><th>colour</th><th>bone / group</th>";
    if (before) h += "<th>vertices before</th>";
    if (after) h += "<th>vertices after</th>";
    h += "</tr>\n";
    auto row = [&](image::Rgba8 c, const std::string& name, std::size_t b, std::size_t a) {
        h += "<tr><td><span class=\"legend\" style=\"background:" + hex_colour(c) + "\"></span> " + hex_colour(c) +
             "</td><td>" + esc(name) + "</td>";
        if (before) h += "<td class=\"num\">" + std::to_string(b) + "</td>";
        if (after) h += "<td class=\"num\">" + std::to_string(a) + "</td>";
        h += "</tr>\n";
    };
    for (const auto& e : l.entries) row(e.colour, e.bone, e.before, e.after);
    if (l.other_before || l.other_after) row(other_colour, "other bones", l.other_before, l.other_after);
    if (l.none_before || l.none_after) row(none_colour, "no weight", l.none_before, l.none_after);
    return h + "</table>\n";
}

// The interactive before/after (report_page_viewer.hpp): the two models, and for a replaced or
// reweighted skin their largest-weight views. A model the GLB writer refuses becomes a note.
std::string view_in_3d(Section& s, const std::string& op, const Side& before, const Side& after) {
    std::vector<ViewerModel> models;
    std::string notes;
    auto add = [&](const std::string& label, const scene::Scene& sc) {
        try {
            models.push_back({label, scene::export_glb(sc, label)});
        } catch (const std::exception& e) {
            notes += "<p class=\"note\">3D view: no " + esc(label) + " model (" + esc(e.what()) + ")</p>\n";
        }
    };
    if (before.scene) add("before", *before.scene);
    if (after.scene) add("after", *after.scene);
    if (op == "mesh.replace" || op == "skin.reweight") {
        const WeightLegend legend = weight_legend(before.scene ? &*before.scene : nullptr, after.scene ? &*after.scene : nullptr);
        if (before.scene) add("weights before", weight_view(*before.scene, legend));
        if (after.scene) add("weights after", weight_view(*after.scene, legend));
    }
    for (const auto& [label, side] : {std::pair{"bones before", &before}, std::pair{"bones after", &after}})
        if (side->scene)
            if (auto sc = bones_view(*side->scene)) add(label, *sc);
    if (!models.empty() && !viewer_script().empty()) s.viewers = true;
    return viewer_block(s.anchor + "-3d", models) + notes;
}

}  // namespace

void model_section(Section& s, const Json& edit) {
    const Json* result = member(edit, "result");
    if (!result) return;
    const std::string op = text_of(edit, "op");
    const std::string input = Files::input_of(edit);
    const std::string output = s.files.output_of(input).value_or("");
    SceneOf make;
    std::string what;
    // pokemon-stadium's mesh.replace names a "model" (and no quartet): drawn as the other Stadium edits.
    const bool stadium_mesh = op == "mesh.replace" && !member(*result, "quartet") && u64_of(*result, "model");
    // totemtech's names a "character" (issue 29: it used to be drawn as a SHRED quartet's mesh).
    const bool totem_mesh = op == "mesh.replace" && member(*result, "character");
    if (totem_mesh) {
        const std::string character = text_of(*result, "character");
        std::string skin;
        if (const Json* skins = member(*result, "skins"); skins && skins->IsArray() && !skins->Empty())
            skin = text_of((*skins)[0], "skin");
        if (!skin.empty()) {
            make = totem_scene(skin, report_names(s.files));
            what = "character " + character + " (SKIN " + skin + " with its MESHes)";
        } else {
            std::vector<std::string> labels;
            if (const Json* ms = member(*result, "meshes"); ms && ms->IsArray())
                for (const auto& m : ms->GetArray()) labels.push_back(text_of(m, "mesh"));
            make = totem_meshes_scene(labels);
            what = "character " + character + " (its replaced MESHes)";
        }
    } else if (op == "mesh.replace" && !stadium_mesh) {
        const std::string quartet = text_of(*result, "quartet");
        const std::size_t mesh = u64_of(*result, "mesh").value_or(0);
        make = shred_scene(quartet, mesh);
        what = "mesh " + std::to_string(mesh) + " of quartet " + quartet;
    } else if (op == "skin.reweight") {
        const std::string skin = text_of(*result, "skin");
        make = totem_scene(skin, report_names(s.files));
        what = "SKIN " + skin + " with its MESHes";
    } else {
        auto index = u64_of(*result, "model");
        if (!index) index = u64_of(*result, "entry");
        if (!index) return;
        make = stadium_scene(s.files, *index);
        what = "model " + std::to_string(*index);
    }
    // One file's model is drawn once: later edits of it point there ("after" is the output file).
    const std::string key = input + "\n" + what;
    if (auto it = s.drawn.find(key); it != s.drawn.end()) {
        s.html += "<p>Pictures of " + esc(what) + " before and after: <a href=\"#" + it->second +
                  "-model\">above</a> (after every edit of the file).</p>\n";
        return;
    }
    const Side before = load_side(s.files, input, make), after = load_side(s.files, output, make);
    // A replaced entry need not be a model: nothing to draw then.
    if ((op == "entry.replace" || op == "fragment.bytes") && !before.scene && !after.scene) return;
    s.drawn[key] = s.anchor;
    s.html += "<h3 id=\"" + s.anchor + "-model\">" + esc(what) + "</h3>\n";
    if (!before.scene) note(s, "before: " + before.why);
    if (!after.scene) note(s, "after: " + (output.empty() ? std::string("the report names no output for ") + input : after.why));
    std::optional<render::Box> bb, ba;
    if (before.scene) bb = render::bounding_box(*before.scene);
    if (after.scene) ba = render::bounding_box(*after.scene);
    const render::Box fit = render::union_box(bb.value_or(render::Box{}), ba.value_or(render::Box{}));
    if (before.scene) s.html += pictures(*before.scene, fit, s.options.preview_size, "before");
    if (after.scene) s.html += pictures(*after.scene, fit, s.options.preview_size, "after");
    if (op == "mesh.replace" || op == "skin.reweight") {
        s.html += "<br>";
        const WeightLegend legend = weight_legend(before.scene ? &*before.scene : nullptr, after.scene ? &*after.scene : nullptr);
        if (before.scene) s.html += weight_pictures(*before.scene, fit, s.options.preview_size, "before", legend);
        if (after.scene) s.html += weight_pictures(*after.scene, fit, s.options.preview_size, "after", legend);
        s.html += legend_html(legend, before.scene.has_value(), after.scene.has_value());
    }
    if (before.scene || after.scene) s.html += size_bar(fit, s.options.preview_size);
    s.html += view_in_3d(s, op, before, after);
    if (before.scene || after.scene)
        s.html += "<p class=\"note\">Both drawn at one scale (the union of the two bounding boxes), bind pose, orthographic; "
                  "front looks along -Z, side along -X.</p>\n";
    box_table(s, bb, ba);
    counts_tables(s, *result, op, before, after);
}

}  // namespace mod::manifest::detail::page
