// Manifest validation: the schema and the rules beside it, every problem in one run, each at
// its file:line:column with a plain-English message.
#include "test_support.hpp"

#include "libmod/manifest/manifest.hpp"

#include <fstream>

using namespace mod::manifest;
using modtest::TempDir;

namespace {

std::vector<Diagnostic> problems(const std::string& text, const std::filesystem::path& dir = ".") {
    try {
        parse_manifest(text, "mod.json", dir);
    } catch (const ManifestError& e) {
        return e.diagnostics();
    }
    return {};
}

std::string all(const std::vector<Diagnostic>& d) {
    std::string s;
    for (const auto& x : d) s += x.text() + "\n";
    return s;
}

const char* valid = R"({
  "modkit": 1,
  "name": "Blue",
  "game": "pokemon-stadium",
  "inputs": { "rom": { "path": "base/stadium.z64" } },
  "outputs": { "rom": "out/mod.z64", "patches": ["bps"] },
  "edits": [
    { "id": "body", "op": "palette.hsv", "model": 1, "palette": 0, "hue": 200, "lock": "0-1" }
  ]
})";

}  // namespace

BOOST_AUTO_TEST_SUITE(manifest_validate)

BOOST_AUTO_TEST_CASE(a_valid_manifest_reads_into_plain_data) {
    const Manifest m = parse_manifest(valid, "mod.json", "dir");
    BOOST_TEST(m.name == "Blue");
    BOOST_TEST(to_string(m.game) == "pokemon-stadium");
    BOOST_REQUIRE_EQUAL(m.inputs.size(), 1u);
    BOOST_TEST(m.inputs[0].path == std::filesystem::path("dir/base/stadium.z64"));
    BOOST_TEST(m.outputs.at("rom") == std::filesystem::path("dir/out/mod.z64"));
    BOOST_REQUIRE_EQUAL(m.edits.size(), 1u);
    BOOST_TEST(m.edits[0].id == "body");
    BOOST_TEST(m.edits[0].input == "rom");  // the only input
    BOOST_TEST(m.patches == std::vector<std::string>{"bps"});
}

BOOST_AUTO_TEST_CASE(a_misspelt_enum_value_is_located_and_corrected) {
    const std::string text = R"({
  "modkit": 1, "name": "x", "game": "pokemon-stadium",
  "inputs": { "rom": { "path": "a.z64" } },
  "outputs": { "rom": "b.z64" },
  "edits": [
    { "op": "palette.hsv", "model": 1, "palette": 0 },
    { "op": "texture.replace", "model": 1, "texture": 0, "png": "t.png", "mode": "constrianed" }
  ]
})";
    const auto d = problems(text);
    BOOST_REQUIRE_EQUAL(d.size(), 1u);
    BOOST_TEST(d[0].line == 7u);
    BOOST_TEST(d[0].column == 82u);
    BOOST_TEST(d[0].where == "edits[1].mode");
    BOOST_TEST(d[0].text() == "mod.json:7:82: edits[1].mode: \"constrianed\" is not one of auto, reindex, constrained, "
                              "fork, shared (did you mean \"constrained\"?)");
}

BOOST_AUTO_TEST_CASE(every_problem_is_reported_in_one_run) {
    const std::string text = R"({
  "modkit": 2, "name": "", "game": "pokemon-stadum",
  "inputs": { "rom": { "path": "a.z64", "sha": "00" } },
  "outputs": { "rom": "b.z64" },
  "edits": [
    { "op": "palette.sett", "model": 1 },
    { "op": "palette.hsv", "model": "1", "palette": 0, "hue": 720, "colour": 3 }
  ]
})";
    const auto d = problems(text);
    const std::string s = all(d);
    BOOST_TEST_INFO(s);
    BOOST_TEST(s.find("mod.json:2:13: modkit: this modkit reads manifest version 1, not 2") != std::string::npos);
    BOOST_TEST(s.find("mod.json:2:24: name: must not be empty") != std::string::npos);
    BOOST_TEST(s.find("mod.json:2:36: game: \"pokemon-stadum\" is not one of pokemon-stadium, thps-shred, totemtech "
                      "(did you mean \"pokemon-stadium\"?)") != std::string::npos);
    BOOST_TEST(s.find("mod.json:3:41: inputs.rom.sha: unknown field \"sha\" (did you mean \"sha1\"?)") != std::string::npos);
    BOOST_TEST(s.find("mod.json:6:13: edits[0].op: unknown operation \"palette.sett\" (did you mean \"palette.set\"?); operations: ") !=
               std::string::npos);
    BOOST_TEST(s.find("mod.json:7:37: edits[1].model: expected an integer, got \"1\"") != std::string::npos);
    BOOST_TEST(s.find("mod.json:7:63: edits[1].hue: must be at most 360, got 720") != std::string::npos);
    BOOST_TEST(s.find("mod.json:7:68: edits[1].colour: unknown field \"colour\"") != std::string::npos);
    BOOST_TEST(d.size() == 8u);
}

BOOST_AUTO_TEST_CASE(missing_fields_and_wrong_types_are_named) {
    const std::string text = R"({"modkit": 1, "name": "x", "game": "thps-shred", "inputs": {"pak": {"path": "a.pak"}},
"outputs": {"pak": "b.pak"}, "edits": [{"op": "mesh.replace", "quartet": "q", "mesh": 0, "weld": "yes"}]})";
    const std::string s = all(problems(text));
    BOOST_TEST_INFO(s);
    BOOST_TEST(s.find("edits[0]: missing required field \"source\"") != std::string::npos);
    BOOST_TEST(s.find("edits[0].weld: expected true or false, got \"yes\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(rules_beyond_the_schema) {
    const std::string text = R"({"modkit": 1, "name": "x", "game": "pokemon-stadium",
"inputs": {"rom": {"path": "a.z64"}, "rom2": {"path": "c.z64"}},
"outputs": {"romm": "b.z64"},
"edits": [{"id": "a", "op": "mesh.edit", "csv": "x.csv", "input": "rom"},
          {"id": "a", "op": "bytes.patch", "offset": 0, "expect": "00", "bytes": "01"},
          {"op": "bytes.patch", "input": "rom3", "offset": "0x10", "expect": "00", "bytes": "01"}]})";
    const std::string s = all(problems(text));
    BOOST_TEST_INFO(s);
    BOOST_TEST(s.find("mod.json:3:13: outputs.romm: no input named \"romm\" (did you mean \"rom\"?)") != std::string::npos);
    BOOST_TEST(s.find("edits[0].op: \"mesh.edit\" is a thps-shred operation; this manifest's game is pokemon-stadium") !=
               std::string::npos);
    BOOST_TEST(s.find("edits[1].id: the id \"a\" is used by edits[0] already") != std::string::npos);
    BOOST_TEST(s.find("edits[1]: the manifest has several inputs (rom, rom2): say which this edit changes with \"input\"") !=
               std::string::npos);
    BOOST_TEST(s.find("edits[2].input: no input named \"rom3\" (did you mean \"rom\"?)") != std::string::npos);
    BOOST_TEST(s.find("edits change the input \"rom\" but \"outputs\" names no file for it") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(written_and_asset_paths_may_not_leave_the_manifest_folder) {
    TempDir tmp;
    std::filesystem::create_directories(tmp / "mod");
    std::filesystem::create_symlink("/etc", tmp / "mod" / "escape");
    const std::string text = R"({"modkit": 1, "name": "x", "game": "pokemon-stadium",
"inputs": {"rom": {"path": "../a.z64"}},
"outputs": {"rom": "/tmp/b.z64"},
"edits": [{"op": "texture.replace", "model": 1, "texture": 0, "png": "escape/passwd"},
          {"op": "entry.replace", "entry": 1, "file": "ok/fine.bin"}]})";
    const std::string s = all(problems(text, tmp / "mod"));
    BOOST_TEST_INFO(s);
    // A base file is only read: it may lie outside the mod folder (issue 30); outputs and assets may not.
    BOOST_TEST(s.find("inputs.rom.path") == std::string::npos);
    BOOST_TEST(s.find("outputs.rom: \"/tmp/b.z64\" is absolute") != std::string::npos);
    BOOST_TEST(s.find("edits[0].png: \"escape/passwd\" leads outside the manifest's folder through a symbolic link") !=
               std::string::npos);
    BOOST_TEST(s.find("fine.bin") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(json_syntax_errors_have_a_position) {
    auto d = problems("{\n  \"modkit\": 1,\n  // a comment\n}");
    BOOST_REQUIRE_EQUAL(d.size(), 1u);
    BOOST_TEST(d[0].line == 3u);
    BOOST_TEST(d[0].message.find("comments are not allowed") != std::string::npos);
    d = problems("{\"modkit\": 1, \"modkit\": 1}");
    BOOST_REQUIRE_EQUAL(d.size(), 1u);
    BOOST_TEST(d[0].text() == "mod.json:1:15: modkit: the field \"modkit\" is given twice");
    d = problems(std::string(100, '[') + std::string(100, ']'));
    BOOST_REQUIRE_EQUAL(d.size(), 1u);
    BOOST_TEST(d[0].message.find("nested deeper than 64") != std::string::npos);
    d = problems("{\"name\": \"\xC3\x28\"}");
    BOOST_REQUIRE_EQUAL(d.size(), 1u);
    BOOST_TEST(d[0].message.find("not valid JSON") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(reserved_input_names_and_bad_values) {
    const std::string text = R"({"modkit": 1, "name": "x", "game": "pokemon-stadium",
"inputs": {"report": {"path": "a.z64"}, "9x": {"path": "c.z64", "sha1": "xyz"}},
"outputs": {}, "edits": []})";
    const std::string s = all(problems(text));
    BOOST_TEST_INFO(s);
    BOOST_TEST(s.find("inputs.report: \"report\" is a reserved name") != std::string::npos);
    BOOST_TEST(s.find("inputs.9x: \"9x\" is not a name like rom or data") != std::string::npos);
    BOOST_TEST(s.find("inputs.9x.sha1: \"xyz\" is not 40 hex digits") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(every_operation_of_the_schema_has_an_implementation) {
    const auto ops = operation_names();
    for (const char* name : {"bytes.patch", "palette.set", "palette.hsv", "texture.replace", "entry.replace",
                             "fragment.bytes", "mesh.replace", "mesh.edit", "pak.replace-entry", "skin.reweight",
                             "record.replace", "record.add", "record.remove"}) {
        BOOST_TEST_INFO(name);
        BOOST_TEST(std::any_of(ops.begin(), ops.end(), [&](const auto& p) { return p.first == name; }));
    }
    BOOST_TEST(manifest_schema().find("\"op.mesh.replace\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_edit_without_op_and_a_bad_branch_value_get_one_precise_message_each) {
    const std::string text = R"({"modkit": 1, "name": "x", "game": "pokemon-stadium",
"inputs": {"rom": {"path": "a.z64"}}, "outputs": {"rom": "b.z64"},
"edits": [{"model": 1}, {"op": "palette.hsv", "model": 1, "palette": 0, "lock": [300]}]})";
    const auto d = problems(text);
    const std::string s = all(d);
    BOOST_TEST_INFO(s);
    BOOST_REQUIRE_EQUAL(d.size(), 2u);
    BOOST_TEST(d[0].text() == "mod.json:3:11: edits[0]: missing required field \"op\"");
    BOOST_TEST(d[1].text() == "mod.json:3:82: edits[1].lock[0]: must be at most 255, got 300");
}

BOOST_AUTO_TEST_SUITE_END()
