#pragma once
// The modkit command-line framework. Each command group (yay0, szp, rom, stadium, shred,
// totem, sample, …) lives in its own file and registers itself with a static Registrar, so
// adding a group never touches main.cpp. Groups use only libmod's public headers.
//
// Conventions every command follows:
//  * `modkit GROUP --help` and `modkit GROUP SUB --help` print usage and exit 0.
//  * Results go to stdout; `--json` switches a reporting command to one JSON document.
//  * Progress and warnings go to stderr; `--quiet` silences progress.
//  * Failures print exactly one line "modkit: <file>: offset 0x…: <path>: <message>" and exit
//    with mod::exit_code(kind): 0 ok, 1 usage, 2 invalid input, 3 limit/conflict, 4 I/O.

#include "libmod/core/error.hpp"
#include "libmod/image/recolour.hpp"

#include <boost/program_options.hpp>
#include <array>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace modkit {

namespace po = boost::program_options;

// Options every command understands.
struct Global {
    bool json = false;
    bool quiet = false;
    unsigned threads = 0;  // 0 = all cores
};

struct Subcommand {
    std::string name;
    std::string synopsis;  // "IN OUT [--mode nintendo|best]"
    std::string summary;   // one line
    // Declares options and positionals; may be empty.
    std::function<void(po::options_description&, po::positional_options_description&)> declare;
    std::function<int(const po::variables_map&, const Global&)> run;
};

struct Group {
    std::string name;
    std::string summary;
    std::vector<Subcommand> subcommands;
    // A group with a single action and no subcommands sets `single` instead.
    bool single = false;
    // Registered with only some of its subcommands (`stadium list` in the lean front): the
    // lean `modkit` runs those and hands the rest, and the group's help, to modkit-scene.
    // Merged registrations are partial only when every one of them is.
    bool partial = false;
};

void register_group(Group group);

// The lean front (main.cpp, MODKIT_LEAN_FRONT) runs some commands itself. One that finds, before
// any side effect, that it needs what only modkit-scene carries (an operation importing models, a
// report page, a mod pack) throws HandOver, and main runs modkit-scene with the same command line.
struct HandOver {
    std::string why;
};
bool lean_front() noexcept;
void set_lean_front() noexcept;
const std::map<std::string, Group>& groups();

struct Registrar {
    explicit Registrar(Group group) { register_group(std::move(group)); }
};

// The examples a subcommand's --help ends with ("group sub", or the group's name for a
// single-action group), or nullptr (help_examples.cpp).
const std::vector<std::string>* help_examples(const std::string& key);

// Runs `modkit GROUP ARGS…` (args exclude the program and group names).
int run_group(const Group& group, const std::vector<std::string>& args);

// Helpers for command bodies.
// Required positional argument (usage error naming it when missing).
std::string required(const po::variables_map& vm, const std::string& name);
std::vector<std::string> required_list(const po::variables_map& vm, const std::string& name);
[[noreturn]] void usage_error(const std::string& message);
// Warnings go to stderr as "modkit: warning: …".
void warn(const std::string& message);
// A failure a reporting command found (and also shows in its report) goes to stderr as
// "modkit: …", so a script reading only stderr and the exit code learns why.
void report_failure(const std::string& message);

// ---- numbers on the command line ---------------------------------------------------------------
// Parsed in full and range-checked, never wrapped or truncated: "4294967297" is not slot 1,
// "5abc" is not 5, "-1" is not 4294967295, "nan" and "inf" are not numbers. Failures are usage
// errors naming `what` and the text.
//
// A whole number: decimal digits, or 0x/0X followed by hex digits; no sign, no spaces; <= max.
std::uint64_t parse_uint(std::string_view text, std::uint64_t max, const std::string& what);
// A signed whole number in [min, max] (decimal, optional leading '-').
std::int64_t parse_int(std::string_view text, std::int64_t min, std::int64_t max, const std::string& what);
// Hex digits only (no prefix), e.g. colours and RGBA5551 words; <= max.
std::uint64_t parse_hex(std::string_view text, std::uint64_t max, const std::string& what);
// A finite decimal number; with `as_float`, also finite once rounded to float.
double parse_finite(std::string_view text, const std::string& what, bool as_float = false);

// ---- palette slots and colours ----------------------------------------------------------------
// The texts of libmod/image/palette_text.hpp (the manifest's too); their usage errors are
// prefixed with "--NAME ".
//
// Every value of a multitoken string option (`--lock 0-5 --lock 9` or `--lock 0-5 9`), each a
// slot list ("5", "0-5", "1,3,7-9"), merged: sorted, each slot once. None: empty.
std::vector<unsigned> slot_list_option(const po::variables_map& vm, const std::string& name, unsigned max_slot = 255);
// Every SLOT=RRGGBB[AA] value of a multitoken option (`--set 1=#FF0000 --set 2=00FF0080`), in
// order; usage error when the option is absent.
std::vector<mod::image::SlotColour> slot_colour_option(const po::variables_map& vm, const std::string& name);
// The colour an option gives ("#RRGGBB", "RRGGBB", "#RRGGBBAA" or "RRGGBBAA"), when it is given.
std::optional<mod::image::Rgba8> colour_option(const po::variables_map& vm, const std::string& name);

namespace detail {
// Empty string when `text` is a valid T (stored in `out`), else why not.
std::string parse_number(std::string_view text, std::uint64_t& out, std::uint64_t max);
std::string parse_number(std::string_view text, std::int64_t& out, std::int64_t min, std::int64_t max);
std::string parse_number(std::string_view text, double& out, bool as_float);
[[noreturn]] void bad_option_value(const std::string& token, const std::string& why);

template <class T>
T strict_parse(const std::string& token) {
    std::string why;
    if constexpr (std::is_floating_point_v<T>) {
        double v = 0;
        why = parse_number(token, v, std::is_same_v<T, float>);
        if (why.empty()) return static_cast<T>(v);
    } else if constexpr (std::is_unsigned_v<T>) {
        std::uint64_t v = 0;
        why = parse_number(token, v, std::numeric_limits<T>::max());
        if (why.empty()) return static_cast<T>(v);
    } else {
        std::int64_t v = 0;
        why = parse_number(token, v, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
        if (why.empty()) return static_cast<T>(v);
    }
    bad_option_value(token, why);
}

// po::typed_value whose text is parsed by strict_parse instead of boost::lexical_cast (which
// wraps "-1" into an unsigned and accepts "nan").
template <class T>
class StrictNumber : public po::typed_value<T> {
public:
    StrictNumber() : po::typed_value<T>(nullptr) {}
    void xparse(boost::any& store, const std::vector<std::string>& tokens) const override {
        po::validators::check_first_occurrence(store);
        store = boost::any(strict_parse<T>(po::validators::get_single_string(tokens)));
    }
};

template <class T>
class StrictNumberList : public po::typed_value<std::vector<T>> {
public:
    StrictNumberList() : po::typed_value<std::vector<T>>(nullptr) {}
    void xparse(boost::any& store, const std::vector<std::string>& tokens) const override {
        if (store.empty()) store = boost::any(std::vector<T>());
        auto* list = boost::any_cast<std::vector<T>>(&store);
        for (const auto& token : tokens) list->push_back(strict_parse<T>(token));
    }
};
}  // namespace detail

// Drop-in replacements for po::value<T>() with T an arithmetic type: number<unsigned>(),
// number<double>()->default_value(1.0), number_list<std::size_t>()->multitoken().
template <class T>
po::typed_value<T>* number() {
    static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>);
    return new detail::StrictNumber<T>();
}
template <class T>
po::typed_value<std::vector<T>>* number_list() {
    static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>);
    return new detail::StrictNumberList<T>();
}

}  // namespace modkit
