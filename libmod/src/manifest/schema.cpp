#include "schema.hpp"

#include "libmod/core/rapidjson.hpp"
#include <valijson/adapters/rapidjson_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <regex>
#include <set>
#include <tuple>

namespace mod::manifest::detail {

namespace {

using rapidjson::Value;

struct LoadedSchema {
    rapidjson::Document doc;
    valijson::Schema schema;
};

std::unique_ptr<LoadedSchema> load_schema(std::string_view text) {
    auto s = std::make_unique<LoadedSchema>();
    s->doc.Parse(text.data(), text.size());
    if (s->doc.HasParseError()) throw Error(ErrorKind::format, "the embedded schema is not valid JSON", "schema");
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::RapidJsonAdapter adapter(s->doc);
    parser.populateSchema(adapter, s->schema);
    return s;
}

const LoadedSchema& manifest_schema() {
    static std::once_flag once;
    static std::unique_ptr<LoadedSchema> s;
    std::call_once(once, [] { s = load_schema(manifest_schema_text()); });
    return *s;
}

const LoadedSchema& report_schema() {
    static std::once_flag once;
    static std::unique_ptr<LoadedSchema> s;
    std::call_once(once, [] { s = load_schema(report_schema_text()); });
    return *s;
}

// ---- walking the schema alongside the instance -------------------------------------------

class SchemaWalker {
public:
    explicit SchemaWalker(const Value& root) : root_(root) {}

    const Value* resolve(const Value* node) const {
        for (int guard = 0; node && node->IsObject() && guard < 16; ++guard) {
            auto ref = node->FindMember("$ref");
            if (ref == node->MemberEnd() || !ref->value.IsString()) break;
            std::string target = ref->value.GetString();
            if (target.rfind("#/", 0) != 0) return nullptr;
            node = rapidjson::Pointer(target.substr(1).c_str()).Get(root_);
        }
        return node;
    }

    // The `then` schema of the if/then branch whose `op` const matches the instance (edits).
    const Value* op_branch(const Value* node, const Value& instance) const {
        if (!node || !node->IsObject() || !instance.IsObject()) return nullptr;
        auto all = node->FindMember("allOf");
        auto op = instance.FindMember("op");
        if (all == node->MemberEnd() || !all->value.IsArray() || op == instance.MemberEnd() || !op->value.IsString())
            return nullptr;
        for (const auto& branch : all->value.GetArray()) {
            const Value* cond = rapidjson::Pointer("/if/properties/op/const").Get(branch);
            if (cond && cond->IsString() && std::string_view(cond->GetString()) == op->value.GetString() &&
                has_all(rapidjson::Pointer("/if/required").Get(branch), instance, true) &&
                !has_all(rapidjson::Pointer("/if/not/required").Get(branch), instance, false))
                return resolve(rapidjson::Pointer("/then").Get(branch));
        }
        return nullptr;
    }

    // Whether `instance` has every field `required` lists (`absent` when there is no list): an
    // operation shared by two games (palette.set) picks its branch by a field only one has.
    static bool has_all(const Value* required, const Value& instance, bool absent) {
        if (!required || !required->IsArray()) return absent;
        for (const auto& f : required->GetArray())
            if (!f.IsString() || !instance.HasMember(f.GetString())) return false;
        return true;
    }

    // For oneOf nodes: the first branch whose type accepts the instance.
    const Value* pick_one_of(const Value* node, const Value& instance) const {
        if (!node || !node->IsObject()) return node;
        auto one = node->FindMember("oneOf");
        if (one == node->MemberEnd()) return node;
        for (const auto& b : one->value.GetArray()) {
            const Value* r = resolve(&b);
            auto t = r ? r->FindMember("type") : Value::ConstMemberIterator();
            if (r && t != r->MemberEnd() && t->value.IsString() && type_accepts(t->value.GetString(), instance)) return r;
        }
        return node;
    }

    static bool type_accepts(std::string_view type, const Value& v) {
        if (type == "object") return v.IsObject();
        if (type == "array") return v.IsArray();
        if (type == "string") return v.IsString();
        if (type == "integer") return v.IsInt64() || v.IsUint64();
        if (type == "number") return v.IsNumber();
        if (type == "boolean") return v.IsBool();
        return false;
    }

    // One step down from `node` (the schema of `instance`) to the schema of instance[token].
    const Value* child(const Value* node, const Value& instance, std::string_view token) const {
        node = pick_one_of(resolve(node), instance);
        if (!node || !node->IsObject()) return nullptr;
        if (instance.IsArray()) {
            auto items = node->FindMember("items");
            return items == node->MemberEnd() ? nullptr : resolve(&items->value);
        }
        if (!instance.IsObject()) return nullptr;
        const std::string key(token);
        const Value* found = nullptr;
        for (const Value* candidate : {node, op_branch(node, instance)}) {
            if (!candidate) continue;
            auto props = candidate->FindMember("properties");
            if (props == candidate->MemberEnd()) continue;
            auto m = props->value.FindMember(key.c_str());
            if (m == props->value.MemberEnd()) continue;
            if (m->value.IsObject() && m->value.MemberCount() > 0) return resolve(&m->value);
            if (!found) found = &m->value;
        }
        if (found) return found;
        for (const Value* candidate : {node, op_branch(node, instance)}) {
            if (!candidate) continue;
            auto extra = candidate->FindMember("additionalProperties");
            if (extra != candidate->MemberEnd() && extra->value.IsObject()) return resolve(&extra->value);
        }
        return nullptr;
    }

    // The property names an object schema declares (itself and its op branch).
    std::vector<std::string> declared(const Value* node, const Value& instance) const {
        std::vector<std::string> out;
        node = resolve(node);
        for (const Value* candidate : {node, op_branch(node, instance)}) {
            if (!candidate || !candidate->IsObject()) continue;
            auto props = candidate->FindMember("properties");
            if (props == candidate->MemberEnd()) continue;
            for (const auto& m : props->value.GetObject())
                if (std::find(out.begin(), out.end(), m.name.GetString()) == out.end()) out.push_back(m.name.GetString());
        }
        return out;
    }

    const Value& root() const { return root_; }

private:
    const Value& root_;
};

struct Located {
    const Value* instance = nullptr;
    const Value* schema = nullptr;  // resolved, op branch and oneOf applied
};

Located locate(const SchemaWalker& w, const Value& doc, std::string_view pointer) {
    const Value* inst = &doc;
    const Value* node = w.resolve(&w.root());
    for (const auto& token : pointer_tokens(pointer)) {
        const Value* next = nullptr;
        if (inst->IsObject()) {
            auto m = inst->FindMember(token.c_str());
            if (m != inst->MemberEnd()) next = &m->value;
        } else if (inst->IsArray()) {
            const auto i = std::strtoull(token.c_str(), nullptr, 10);
            if (i < inst->Size()) next = &(*inst)[rapidjson::SizeType(i)];
        }
        if (!next) break;
        node = w.child(node, *inst, token);
        inst = next;
    }
    return {inst, node ? w.pick_one_of(w.resolve(node), *inst) : nullptr};
}

std::string type_name(const Value& v) {
    if (v.IsObject()) return "an object";
    if (v.IsArray()) return "an array";
    if (v.IsString()) return "a string";
    if (v.IsBool()) return "true/false";
    if (v.IsNull()) return "null";
    if (v.IsInt64() || v.IsUint64()) return "an integer";
    return "a number";
}

std::string short_value(const Value& v) {
    if (v.IsString()) {
        std::string s = v.GetString();
        if (s.size() > 40) s = s.substr(0, 37) + "...";
        return "\"" + s + "\"";
    }
    if (v.IsInt64()) return std::to_string(v.GetInt64());
    if (v.IsUint64()) return std::to_string(v.GetUint64());
    if (v.IsDouble()) {
        char b[32];
        std::snprintf(b, sizeof b, "%g", v.GetDouble());
        return b;
    }
    if (v.IsBool()) return v.GetBool() ? "true" : "false";
    return type_name(v);
}

std::string number_text(const Value& v) {
    if (v.IsInt64()) return std::to_string(v.GetInt64());
    if (v.IsUint64()) return std::to_string(v.GetUint64());
    char b[32];
    std::snprintf(b, sizeof b, "%g", v.GetDouble());
    return b;
}

std::string schema_string(const Value* node, const char* key) {
    if (!node || !node->IsObject()) return {};
    auto m = node->FindMember(key);
    return m != node->MemberEnd() && m->value.IsString() ? m->value.GetString() : std::string();
}

std::string expected_types(const Value* node) {
    if (!node || !node->IsObject()) return "another type";
    auto one = node->FindMember("oneOf");
    if (one != node->MemberEnd()) {
        const std::string d = schema_string(node, "description");
        return d.empty() ? "one of the allowed forms" : d;
    }
    const std::string t = schema_string(node, "type");
    if (t == "integer") return "an integer";
    if (t == "number") return "a number";
    if (t == "string") return "a string";
    if (t == "boolean") return "true or false";
    if (t == "object") return "an object";
    if (t == "array") return "an array";
    return t.empty() ? "another type" : t;
}

class Rewriter {
public:
    Rewriter(const JsonSource& src, const SchemaWalker& w) : src_(src), w_(w) {}

    void add(const std::string& pointer, const std::string& description) {
        const Located at = locate(w_, src_.doc(), pointer);
        const Value& inst = *at.instance;
        const Value* node = at.schema;
        auto emit = [&](std::string message, bool key = false, const std::string& where = {}) {
            const std::string p = where.empty() ? pointer : where;
            if (seen_.insert(p + "\n" + message).second) out_.push_back(src_.at(p, std::move(message), key));
        };
        const std::string field = pointer_tokens(pointer).empty() ? "" : pointer_tokens(pointer).back();

        if (description.rfind("Failed to match against any enum values", 0) == 0) {
            std::vector<std::string> allowed;
            if (node && node->IsObject() && node->HasMember("enum"))
                for (const auto& e : (*node)["enum"].GetArray())
                    if (e.IsString()) allowed.push_back(e.GetString());
            std::string list;
            for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
            std::string hint;
            if (inst.IsString())
                if (auto m = closest_match(inst.GetString(), allowed); !m.empty()) hint = " (did you mean \"" + m + "\"?)";
            if (field == "op" && inst.IsString()) emit("unknown operation \"" + std::string(inst.GetString()) + "\"" + hint + "; operations: " + list);
            else if (field == "op" || (inst.IsString() && list.size()))
                emit(short_value(inst) + " is not one of " + list + hint);
            else emit(short_value(inst) + " is not allowed here" + (list.empty() ? "" : "; allowed: " + list));
        } else if (description.rfind("Object contains a property that could not be validated", 0) == 0) {
            const auto known = w_.declared(node, inst);
            for (const auto& m : inst.GetObject()) {
                const std::string k = m.name.GetString();
                if (std::find(known.begin(), known.end(), k) != known.end()) continue;
                std::string msg = "unknown field \"" + k + "\"";
                if (auto c = closest_match(k, known); !c.empty()) msg += " (did you mean \"" + c + "\"?)";
                emit(msg, true, pointer_join(pointer, k));
            }
        } else if (description.rfind("Missing required property '", 0) == 0) {
            const auto q = description.find('\'');
            const auto q2 = description.find('\'', q + 1);
            emit("missing required field \"" + description.substr(q + 1, q2 - q - 1) + "\"");
        } else if (description.rfind("Value type not permitted", 0) == 0 ||
                   description.rfind("Failed to validate against any child schemas allowed by oneOf", 0) == 0) {
            // A oneOf whose branch of the instance's type failed: that branch's own failures
            // say what is wrong (e.g. "must be at most 255"), not the type.
            const std::string t = schema_string(node, "type");
            // (valijson also passes up the type failures of the other branches.)
            if (!t.empty() && SchemaWalker::type_accepts(t, inst)) return;
            emit("expected " + expected_types(node) + ", got " + short_value(inst));
        } else if (description.rfind("Failed to match expected value set by 'const'", 0) == 0) {
            if (pointer == "/modkit") emit("this modkit reads manifest version 1, not " + short_value(inst));
            else emit(short_value(inst) + " is not the expected value");
        } else if (description.rfind("Expected number greater than", 0) == 0 && node && node->HasMember("minimum")) {
            emit("must be at least " + number_text((*node)["minimum"]) + ", got " + short_value(inst));
        } else if (description.rfind("Expected number less than", 0) == 0 && node && node->HasMember("maximum")) {
            emit("must be at most " + number_text((*node)["maximum"]) + ", got " + short_value(inst));
        } else if (description.rfind("Failed to match regex", 0) == 0) {
            if (inst.IsObject() && node && node->HasMember("propertyNames")) return property_names(pointer, inst, node);
            const std::string d = schema_string(node, "description");
            emit(short_value(inst) + " is not " + (d.empty() ? "in the expected form" : d));
        } else if (description.rfind("String should be no fewer than", 0) == 0) {
            emit("must not be empty");
        } else if (description.rfind("Object should have no fewer than", 0) == 0 ||
                   description.rfind("Array should contain no fewer than", 0) == 0) {
            emit("must not be empty");
        } else if (description.rfind("Elements at indexes", 0) == 0) {
            emit("lists the same value twice");
        } else if (description.rfind("Failed to validate against schema associated with property name", 0) == 0 ||
                   description.rfind("Failed to validate item #", 0) == 0 ||
                   description.rfind("Failed to validate against a conditional schema", 0) == 0 ||
                   description.rfind("Failed to validate against additional properties schema", 0) == 0 ||
                   description.rfind("Failed to validate against exactly one child schema", 0) == 0 ||
                   description.rfind("Failed to validate against any schemas allowed by anyOf", 0) == 0) {
            // cascades of a deeper failure, which is reported itself; valijson reports a failed
            // propertyNames only this way, so names are checked here
            const std::string prefix = "Failed to validate against schema associated with property name '";
            if (description.rfind(prefix, 0) == 0) {
                const std::string name = description.substr(prefix.size(), description.rfind('\'') - prefix.size());
                const std::string child = pointer_join(pointer, name);
                const Located c = locate(w_, src_.doc(), child);
                if (c.instance->IsObject() && c.schema && c.schema->IsObject() && c.schema->HasMember("propertyNames"))
                    property_names(child, *c.instance, c.schema);
            }
        } else if (description.rfind("Failed to validate against child schema", 0) == 0) {
            // an allOf branch (the edit's op): its own failures are reported
        } else if (inst.IsObject() && node && node->HasMember("propertyNames")) {
            property_names(pointer, inst, node);
        } else if (pointer.rfind("/inputs/", 0) == 0 && inst.IsObject()) {
            // `not` on an input name is caught by property_names
        } else {
            emit(description);
        }
    }

    std::vector<Diagnostic> take() {
        std::stable_sort(out_.begin(), out_.end(), [](const Diagnostic& a, const Diagnostic& b) {
            return std::tie(a.line, a.column) < std::tie(b.line, b.column);
        });
        return std::move(out_);
    }

private:
    void property_names(const std::string& pointer, const Value& inst, const Value* node) {
        const Value* names = w_.resolve(&(*node)["propertyNames"]);
        const std::string pattern = schema_string(names, "pattern");
        const std::string d = schema_string(names, "description");
        std::vector<std::string> reserved;
        if (names && names->HasMember("not"))
            if (const Value* e = rapidjson::Pointer("/not/enum").Get(*names))
                for (const auto& r : e->GetArray()) reserved.push_back(r.GetString());
        for (const auto& m : inst.GetObject()) {
            const std::string k = m.name.GetString();
            std::string msg;
            if (std::find(reserved.begin(), reserved.end(), k) != reserved.end()) msg = "\"" + k + "\" is a reserved name";
            else if (!pattern.empty() && !std::regex_search(k, std::regex(pattern)))
                msg = "\"" + k + "\" is not " + (d.empty() ? "an allowed name" : d);
            if (!msg.empty() && seen_.insert(pointer_join(pointer, k) + "\n" + msg).second)
                out_.push_back(src_.at(pointer_join(pointer, k), msg, true));
        }
    }

    const JsonSource& src_;
    const SchemaWalker& w_;
    std::vector<Diagnostic> out_;
    std::set<std::string> seen_;
};

// valijson names a context "[key]" or "[index]"; turn it into a JSON pointer using the
// document to tell indices from keys.
std::string to_pointer(const std::vector<std::string>& context, const Value& doc) {
    std::string p;
    const Value* v = &doc;
    for (std::size_t i = 1; i < context.size(); ++i) {
        std::string token = context[i];
        if (token.size() >= 2 && token.front() == '[' && token.back() == ']') token = token.substr(1, token.size() - 2);
        p = pointer_join(p, token);
        if (v && v->IsObject()) {
            auto m = v->FindMember(token.c_str());
            v = m == v->MemberEnd() ? nullptr : &m->value;
        } else if (v && v->IsArray()) {
            const auto k = std::strtoull(token.c_str(), nullptr, 10);
            v = k < v->Size() ? &(*v)[rapidjson::SizeType(k)] : nullptr;
        }
    }
    return p;
}

void collect_paths(const SchemaWalker& w, const Value* node, const Value& inst, const std::string& pointer,
                   std::vector<std::string>& out) {
    if (node && node->IsObject()) {
        auto ref = node->FindMember("$ref");
        if (ref != node->MemberEnd() && ref->value.IsString() && std::string_view(ref->value.GetString()) == "#/definitions/path" &&
            inst.IsString()) {
            out.push_back(pointer);
            return;
        }
    }
    const Value* resolved = w.resolve(node);
    if (resolved && resolved->IsObject()) {
        // oneOf of path / array of paths
        auto one = resolved->FindMember("oneOf");
        if (one != resolved->MemberEnd())
            for (const auto& b : one->value.GetArray()) {
                const Value* r = w.resolve(&b);
                const std::string t = schema_string(r, "type");
                if (SchemaWalker::type_accepts(t, inst) || (t.empty() && inst.IsString()))
                    return collect_paths(w, &b, inst, pointer, out);
            }
    }
    if (inst.IsObject()) {
        for (const auto& m : inst.GetObject()) {
            if (pointer.empty() && std::string_view(m.name.GetString()) == "_catalogue") continue;
            const Value* raw = nullptr;
            // keep the unresolved member schema so a direct $ref to path is seen
            const Value* r = w.resolve(resolved);
            for (const Value* candidate : {r, w.op_branch(r, inst)}) {
                if (raw || !candidate || !candidate->IsObject()) continue;
                auto props = candidate->FindMember("properties");
                if (props != candidate->MemberEnd()) {
                    auto pm = props->value.FindMember(m.name);
                    if (pm != props->value.MemberEnd() && !(pm->value.IsObject() && pm->value.MemberCount() == 0)) raw = &pm->value;
                }
            }
            if (!raw && r && r->IsObject()) {
                auto extra = r->FindMember("additionalProperties");
                if (extra != r->MemberEnd() && extra->value.IsObject()) raw = &extra->value;
            }
            if (raw) collect_paths(w, raw, m.value, pointer_join(pointer, m.name.GetString()), out);
        }
    } else if (inst.IsArray() && resolved && resolved->IsObject() && resolved->HasMember("items")) {
        for (rapidjson::SizeType i = 0; i < inst.Size(); ++i)
            collect_paths(w, &(*resolved)["items"], inst[i], pointer_join(pointer, i), out);
    }
}

}  // namespace

std::vector<Diagnostic> validate_manifest_schema(const JsonSource& source) {
    const LoadedSchema& s = manifest_schema();
    valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::RapidJsonAdapter target(source.doc());
    if (validator.validate(s.schema, target, &results)) return {};
    SchemaWalker walker(s.doc);
    Rewriter rw(source, walker);
    valijson::ValidationResults::Error e;
    while (results.popError(e)) rw.add(to_pointer(e.context, source.doc()), e.description);
    auto out = rw.take();
    if (out.empty()) out.push_back(source.at("", "does not follow the manifest schema"));
    return out;
}

std::vector<std::string> validate_report_schema(const rapidjson::Value& report) {
    const LoadedSchema& s = report_schema();
    valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::RapidJsonAdapter target(report);
    std::vector<std::string> out;
    if (validator.validate(s.schema, target, &results)) return out;
    valijson::ValidationResults::Error e;
    while (results.popError(e)) {
        std::string where;
        for (std::size_t i = 1; i < e.context.size(); ++i) where += e.context[i];
        out.push_back(where + ": " + e.description);
    }
    return out;
}

std::vector<std::string> path_values(const JsonSource& source) {
    const LoadedSchema& s = manifest_schema();
    SchemaWalker walker(s.doc);
    std::vector<std::string> out;
    collect_paths(walker, &s.doc, source.doc(), "", out);
    return out;
}

}  // namespace mod::manifest::detail
