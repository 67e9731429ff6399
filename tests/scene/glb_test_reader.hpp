#pragma once
// Test helper (header only, also used by tests/stadium): splits a GLB into its JSON document
// and BIN chunk, and reads what the exporters put in them (bufferViews, float accessors,
// embedded images), failing the test on anything malformed.

#include "libmod/core/bytes.hpp"

#include <boost/test/unit_test.hpp>
#include "libmod/core/rapidjson.hpp"

#include <cstring>
#include <string>
#include <vector>

namespace glbtest {

struct Gltf {
    rapidjson::Document json;
    mod::Bytes bin;

    // The bytes of bufferView `view` (checked to lie inside the buffer).
    mod::Bytes view_bytes(std::size_t view) const {
        const auto& views = json["bufferViews"];
        BOOST_TEST_REQUIRE(view < views.Size());
        const auto& v = views[static_cast<rapidjson::SizeType>(view)];
        BOOST_TEST_REQUIRE(v["buffer"].GetUint() == 0u);
        const std::size_t offset = v.HasMember("byteOffset") ? v["byteOffset"].GetUint64() : 0;
        const std::size_t length = v["byteLength"].GetUint64();
        BOOST_TEST_REQUIRE(offset + length <= bin.size());
        return mod::Bytes(bin.begin() + static_cast<std::ptrdiff_t>(offset),
                          bin.begin() + static_cast<std::ptrdiff_t>(offset + length));
    }
    // The floats of a FLOAT accessor (tightly packed).
    std::vector<float> floats(std::size_t accessor) const {
        const auto& a = json["accessors"][static_cast<rapidjson::SizeType>(accessor)];
        BOOST_TEST_REQUIRE(a["componentType"].GetUint() == 5126u);
        const mod::Bytes b = view_bytes(a["bufferView"].GetUint64());
        std::vector<float> out(b.size() / 4);
        if (!out.empty()) std::memcpy(out.data(), b.data(), out.size() * 4);
        return out;
    }
    // The PNG bytes of image `image` (embedded through a bufferView, mimeType image/png).
    mod::Bytes image_png(std::size_t image) const {
        const auto& img = json["images"][static_cast<rapidjson::SizeType>(image)];
        BOOST_TEST_REQUIRE(std::string(img["mimeType"].GetString()) == "image/png");
        BOOST_TEST_REQUIRE(!img.HasMember("uri"));
        return view_bytes(img["bufferView"].GetUint64());
    }
};

inline std::uint32_t le32(const mod::Bytes& b, std::size_t at) {
    return std::uint32_t(b[at]) | std::uint32_t(b[at + 1]) << 8 | std::uint32_t(b[at + 2]) << 16 |
           std::uint32_t(b[at + 3]) << 24;
}

inline void parse_json(Gltf& g, const std::string& text) {
    g.json.Parse(text.c_str(), text.size());
    BOOST_TEST_REQUIRE(!g.json.HasParseError());
}

// A .glb file's content.
inline Gltf read_glb(const mod::Bytes& glb) {
    Gltf g;
    BOOST_TEST_REQUIRE(glb.size() >= 20u);
    BOOST_TEST_REQUIRE(le32(glb, 0) == 0x46546C67u);  // "glTF"
    BOOST_TEST_REQUIRE(le32(glb, 8) == glb.size());
    const std::size_t json_len = le32(glb, 12);
    BOOST_TEST_REQUIRE(le32(glb, 16) == 0x4E4F534Au);  // "JSON"
    BOOST_TEST_REQUIRE(20 + json_len <= glb.size());
    parse_json(g, std::string(reinterpret_cast<const char*>(glb.data()) + 20, json_len));
    const std::size_t at = 20 + json_len;
    if (at < glb.size()) {
        BOOST_TEST_REQUIRE(le32(glb, at + 4) == 0x004E4942u);  // "BIN\0"
        const std::size_t bin_len = le32(glb, at);
        BOOST_TEST_REQUIRE(at + 8 + bin_len <= glb.size());
        g.bin.assign(glb.begin() + static_cast<std::ptrdiff_t>(at + 8),
                     glb.begin() + static_cast<std::ptrdiff_t>(at + 8 + bin_len));
    }
    return g;
}

// A .gltf file's content with its .bin.
inline Gltf read_gltf(const mod::Bytes& json, const mod::Bytes& bin) {
    Gltf g;
    parse_json(g, std::string(json.begin(), json.end()));
    g.bin = bin;
    return g;
}

}  // namespace glbtest
