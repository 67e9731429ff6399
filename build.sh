#!/usr/bin/env bash
# modkit's one entry point for a fresh Debian 12 machine.
#   bash build.sh demo   install what is missing, build, and run the demo on the built-in sample data
#   bash build.sh test   install what is missing, build, and run every test, then again under
#                        ASan+UBSan in BUILD-san (SANITIZE=0 skips that stage)
#   bash build.sh build  install what is missing and build only
#   bash build.sh sanitize  only the ASan+UBSan stage of `test` (build in BUILD-san, run its tests)
# BUILD_DIR (default build/) and JOBS (default: all cores) can be set in the environment.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build_dir="${BUILD_DIR:-$here/build}"
jobs="${JOBS:-$(nproc)}"

# Debian packages the build needs (headers and libraries), and the tools the tests use.
packages=(cmake g++ pkg-config libboost-program-options-dev libboost-filesystem-dev
          libboost-test-dev libassimp-dev libeigen3-dev libzstd-dev rapidjson-dev libpng-dev libdivsufsort-dev libvalijson-dev
          libmeshoptimizer-dev libjpeg62-turbo-dev)

# Only `test` needs these: the browser test renders the report page headless (tests/manifest/
# test_report_browser.cpp; skipped with a message where there is no apt to install chromium).
test_packages=(chromium)

# $@: extra packages beyond the build's.
install_missing() {
  local missing=()
  for p in "${packages[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  # Node.js and npm run the Khronos glTF validator in the tests. A machine with another
  # Node.js build (whose package bundles npm) keeps it: Debian's npm would conflict with it.
  command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
  if ((${#missing[@]})); then
    echo "build.sh: installing ${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# $1: ON to build the benchmarks too (they are run by hand, so the test run skips them).
configure_and_build() {
  cmake -S "$here" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DMODKIT_BUILD_BENCH="${1:-ON}" >/dev/null
  cmake --build "$build_dir" -j "$jobs"
}

# The sanitizer build (issue 21, doc/fuzzing.md): the library, the CLI and the tests compiled with
# AddressSanitizer + UndefinedBehaviorSanitizer (-fno-sanitize-recover=all: the first report
# fails the run) in BUILD-san, then every unit test and every fuzz replay under them (the CLI
# tests run the sanitized modkit). -O1 keeps the build and the runs short; ccache is the
# compiler launcher when it is installed. On by default (issue 21); SANITIZE=0 skips it. Its first
# complete run (`bash build.sh sanitize`, fresh clone, no ccache, 2 cores shared with other
# builds): 2,894 s user + 418 s system CPU, so about 28 min of wall time on two idle cores.
sanitizer_tests() {
  [ "${SANITIZE:-1}" = 1 ] || return 0
  local san_dir="$build_dir-san" launcher=()
  command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  local start=$SECONDS
  cmake -S "$here" -B "$san_dir" -DCMAKE_BUILD_TYPE=Release -DMODKIT_BUILD_BENCH=OFF "${launcher[@]}" \
        -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
        -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" >/dev/null
  cmake --build "$san_dir" -j "$jobs"
  local built=$SECONDS
  # Leaks inside Assimp's library only (tests/fuzz/lsan_assimp.supp); the catalogue at a
  # quarter of its variants (the full set runs in the main build).
  ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1 \
  UBSAN_OPTIONS=print_stacktrace=1 LSAN_OPTIONS="suppressions=$here/tests/fuzz/lsan_assimp.supp" \
  MODKIT_HOSTILE_SCALE=0.25 \
    ctest --test-dir "$san_dir" --output-on-failure -j "$jobs"
  echo "build.sh: sanitizer build $((built - start)) s, its tests $((SECONDS - built)) s" >&2
}

case "${1:-}" in
  demo)
    install_missing
    configure_and_build
    "$build_dir/modkit" demo "$build_dir/demo"
    ;;
  test)
    install_missing "${test_packages[@]}"
    configure_and_build OFF
    # The Khronos glTF validator for tests/cli/test_gltf_validator.cpp, project-local (no
    # global install) in BUILD/tools/node_modules.
    if [ ! -f "$build_dir/tools/node_modules/gltf-validator/package.json" ]; then
      mkdir -p "$build_dir/tools"
      (cd "$build_dir/tools" && npm install --no-audit --no-fund --prefix . gltf-validator >npm.log 2>&1) ||
        echo "build.sh: npm could not install gltf-validator (see $build_dir/tools/npm.log)" >&2
    fi
    ctest --test-dir "$build_dir" --output-on-failure -j "$jobs"
    # The layers with SSE2 fast paths, built without them: their tests then check the scalar
    # fallbacks that other machines run.
    cmake -S "$here" -B "$build_dir-scalar" -DCMAKE_BUILD_TYPE=Release -DMODKIT_BUILD_BENCH=OFF \
          -DMODKIT_SCALAR_ONLY=ON >/dev/null
    cmake --build "$build_dir-scalar" -j "$jobs" --target test_scene test_shred
    # (their few command-line cases run the main build's modkit)
    for t in test_scene test_shred; do
      MODKIT_CLI="$build_dir/modkit" "$build_dir-scalar/tests/$t" --log_level=warning --report_level=short
    done
    sanitizer_tests
    ;;
  build)
    install_missing
    configure_and_build
    ;;
  sanitize)
    install_missing "${test_packages[@]}"
    SANITIZE=1 sanitizer_tests
    ;;
  *)
    echo "usage: bash build.sh demo|test|build|sanitize" >&2
    exit 1
    ;;
esac
