#pragma once
// The manifest schema (schemas/manifest.schema.json, embedded at build time) and validation
// against it with valijson, which — unlike RapidJSON 1.1.0's validator, which stops at the
// first failure — collects every failure. Its messages are rewritten into plain English with
// line:column and "did you mean" suggestions. Internal to the manifest layer.

#include "json_source.hpp"

#include <string_view>
#include <vector>

namespace mod::manifest::detail {

// The schema texts as embedded (generated from schemas/*.json by CMake).
std::string_view manifest_schema_text();
std::string_view report_schema_text();

// Every problem the schema finds in `source`, in document order (empty when valid).
std::vector<Diagnostic> validate_manifest_schema(const JsonSource& source);

// Every problem the report schema finds in a report document (for tests and `--check`).
std::vector<std::string> validate_report_schema(const rapidjson::Value& report);

// JSON pointers of every value the schema declares as a path (#/definitions/path), in
// document order. Only meaningful for a document that passed validation.
std::vector<std::string> path_values(const JsonSource& source);

}  // namespace mod::manifest::detail
