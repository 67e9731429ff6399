#pragma once
// Pieces shared by the report page's sections (report_page*.cpp). Internal to the manifest layer.
#include "libmod/image/image.hpp"
#include "libmod/manifest/report_page.hpp"
#include "libmod/stadium/model.hpp"

#include "libmod/core/rapidjson.hpp"

#include "json_fields.hpp"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mod::manifest::detail::page {

using Json = rapidjson::Value;

// HTML-escaped text (& < > " '); control bytes other than tab/newline become U+FFFD.
std::string esc(std::string_view text);
std::string base64(ByteView bytes);
// <img> with the PNG inline; shown at its pixel size (no browser scaling).
std::string img(const image::RgbaImage& picture, const std::string& alt, const std::string& cls = "pic");
// Nearest-neighbour integer enlargement.
image::RgbaImage zoom(const image::RgbaImage& picture, unsigned factor);
// "rgb(r,g,b)" for CSS.
std::string css_rgb(image::Rgba8 c);
std::string fixed(double v, int decimals = 2);
std::string bytes_text(std::uint64_t n);  // "12,345 bytes"

// JSON access that never throws on a missing or mistyped field (json_fields.hpp).
using detail::member;
using detail::number_of;
using detail::text_of;
using detail::u64_of;

// The files the report names, read once each (options.read first, then the disk), checked
// against the SHA-1 the report gives for them.
class Files {
public:
    Files(const ReportPageOptions& options, const Json& report);
    // The bytes of a base file or output by its path as the report writes it; nullptr (and
    // `why`) when it is missing, unreadable or not the file the report describes.
    std::shared_ptr<const Bytes> get(const std::string& path, std::string* why = nullptr);
    // A file an edit names, relative to its manifest's folder (no hash to check).
    std::shared_ptr<const Bytes> get_beside(const std::string& manifest, const std::string& path,
                                            std::string* why = nullptr);
    // The output written from base file `input` (its path as the report writes it), if any.
    std::optional<std::string> output_of(const std::string& input) const;
    // The base file an edit changes: the file its touches name.
    static std::string input_of(const Json& edit);
    // TotemTech name tables among the report's inputs (kind "names"), as the report writes them.
    const std::vector<std::string>& names_inputs() const noexcept { return names_inputs_; }
    // Decoded things shared by the sections (e.g. a Stadium model), by a key they choose.
    std::map<std::string, std::shared_ptr<const void>> decoded;

private:
    std::shared_ptr<const Bytes> load(const std::string& path, const std::string& sha1, std::string* why);
    // Why `path` (as the report writes it) may not be read under confine_to_base; empty: it may.
    std::string outside_base(const std::filesystem::path& path) const;
    const ReportPageOptions& options_;
    std::map<std::string, std::string> sha1_;            // path -> expected sha1
    std::map<std::string, std::string> output_of_;       // input path -> output path
    std::map<std::string, std::shared_ptr<const Bytes>> cache_;
    std::map<std::string, std::string> failures_;
    std::vector<std::string> names_inputs_;
};

struct Section {
    Files& files;
    const ReportPageOptions& options;
    std::string& html;
    std::string anchor;                          // of the edit being written ("edit-3")
    std::map<std::string, std::string> drawn;    // model pictures already on the page -> anchor
    bool viewers = false;                        // a 3D view is on the page (its scripts go at the end)
};

// Stadium model `index` of the ROM at `path` (a report path); nullptr and `why` when the file or
// the model cannot be read.
std::shared_ptr<const stadium::Model> stadium_model(Files& files, const std::string& path, std::size_t index,
                                                    std::string* why);

// The part of the page for one edit's result (after the common header), by operation.
void palette_sections(Section& s, const Json& edit);
void texture_sections(Section& s, const Json& edit);
void model_section(Section& s, const Json& edit);
// A note inside a section ("the output file is missing: …").
void note(Section& s, const std::string& text);

}  // namespace mod::manifest::detail::page
