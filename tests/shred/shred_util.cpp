#include "shred_util.hpp"

namespace shredtest {

const std::filesystem::path& sample_dir() {
    static modtest::TempDir dir;
    static bool made = [] {
        auto r = modtest::run_cli({"sample", dir.path().string(), "--game", "shred"});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, "modkit sample failed: " + r.err);
        return true;
    }();
    (void)made;
    static const std::filesystem::path shred = dir.path() / "shred";
    return shred;
}

}  // namespace shredtest
