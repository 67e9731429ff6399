#!/usr/bin/env bash
# modkit's one entry point for a fresh Debian 12 machine.
#   bash build.sh demo   install what is missing, build, and run the demo on the built-in sample data
#   bash build.sh test   install what is missing, build, and run every test (and the scalar stage)
#   bash build.sh build  install what is missing and build everything (benchmarks included)
#   bash build.sh sanitize  build in BUILD-san with ASan+UBSan and run every test there
#   bash build.sh scalar    build test_scene and test_shred without the SSE2 fast paths in
#                        BUILD-scalar and run them (after `test`, whose modkit they call)
#   (.ci/run runs test, then scalar and sanitize; issue 32)
# BUILD_DIR (default build/) and JOBS (default: all cores) can be set in the environment.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build_dir="${BUILD_DIR:-$here/build}"
jobs="${JOBS:-$(nproc)}"

# Debian packages the build needs (headers and libraries), and the tools the tests use.
packages=(cmake g++ pkg-config libboost-program-options-dev libboost-filesystem-dev
          libboost-test-dev libassimp-dev libeigen3-dev libzstd-dev rapidjson-dev libpng-dev libdivsufsort-dev libvalijson-dev
          libmeshoptimizer-dev libjpeg62-turbo-dev libssl-dev liblzma-dev libzip-dev)

# Only `test` needs these: the browser test renders the report page headless (tests/manifest/
# test_report_browser.cpp) and xdelta3 applies the VCDIFF patches (tests/codec/test_vcdiff.cpp);
# skipped with a message where there is no apt to install them.
test_packages=(chromium xdelta3)

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

# ccache as the compiler launcher when it is installed (a second build of the same sources,
# e.g. the sanitizer or scalar stage after a branch switch, then costs little).
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

# The report page's 3D view (issue 29 item 6) embeds Google's <model-viewer> from npm at build
# time (CMake MODKIT_VIEWER_JS), pinned so every build writes the same pages; installed once,
# project-local, in the main build's tools folder. Without npm or the registry the pages say
# they have no 3D view (and the browser test fails, naming this step).
viewer_version="4.4.0"
viewer_js="$build_dir/tools/node_modules/@google/model-viewer/dist/model-viewer-umd.min.js"
install_viewer() {
  [ -f "$viewer_js" ] && grep -q "\"version\": \"$viewer_version\"" "$build_dir/tools/node_modules/@google/model-viewer/package.json" && return
  mkdir -p "$build_dir/tools"
  (cd "$build_dir/tools" && npm install --no-audit --no-fund --prefix . "@google/model-viewer@$viewer_version" >npm-viewer.log 2>&1) ||
    echo "build.sh: npm could not install @google/model-viewer (see $build_dir/tools/npm-viewer.log): report pages get no 3D view" >&2
}

# $1: the build folder; the rest: cmake options.
configure() {
  local dir=$1
  shift
  install_viewer
  cmake -S "$here" -B "$dir" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" -DMODKIT_VIEWER_JS="$viewer_js" "$@" >/dev/null
}

# Prints how long a stage took (wall clock), so CI logs show where the time goes.
stage_start=$SECONDS
stage_done() {
  echo "build.sh: $1 took $((SECONDS - stage_start)) s" >&2
  stage_start=$SECONDS
}

# The sanitizer stage (issues 21 and 32, doc/fuzzing.md): the library, the CLI and the tests
# compiled with AddressSanitizer + UndefinedBehaviorSanitizer (-fno-sanitize-recover=all: the
# first report fails the run) in BUILD-san, then every unit test and every fuzz replay under them
# (the CLI tests run the sanitized modkit). -O1 keeps the build and the runs short. `bash build.sh
# sanitize` runs it; .ci/run runs it after `bash build.sh test`.
sanitizer_tests() {
  local san_dir="$build_dir-san"
  # The test code itself at -O0 (MODKIT_TEST_FLAGS): it compiles in half the time, and the
  # library and CLI under test keep -O1.
  configure "$san_dir" -DMODKIT_BUILD_BENCH=OFF -DMODKIT_TEST_FLAGS=-O0 \
        -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
        -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG"
  cmake --build "$san_dir" -j "$jobs"
  stage_done "the sanitizer build"
  # Leaks inside Assimp's library only (tests/fuzz/lsan_assimp.supp); the catalogue at a
  # seventh of its variants (the full set runs in the main build). Left out here, run in the main
  # build: the tests whose time goes to an outside program (Chromium, Node.js's glTF validator)
  # or that repeat code paths other tests cover (every command's --help, the tutorials, the
  # -j 1 = -j 2 report comparison, the animation replace CLI runs over every sample entry whose
  # library paths test_animation_replace_model and fuzz_stadium_animation cover here), so the
  # stage stays inside CI's limit.
  local not_here="^(cli/test_cli_help|cli/test_tutorials|cli/test_gltf_validator|manifest/test_report_browser|manifest/test_report_determinism|stadium/test_animation_replace_cli)\$"
  ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1 \
  UBSAN_OPTIONS=print_stacktrace=1 LSAN_OPTIONS="suppressions=$here/tests/fuzz/lsan_assimp.supp" \
  MODKIT_HOSTILE_SCALE=0.15 \
    ctest --test-dir "$san_dir" --output-on-failure -j "$jobs" -E "$not_here"
  stage_done "the tests under ASan+UBSan"
}

case "${1:-}" in
  demo)
    # Only the two executables: no tests, no benchmarks (issue 32: the demo is the first thing a
    # newcomer runs).
    install_missing
    stage_done "installing packages"
    configure "$build_dir" -DMODKIT_BUILD_TESTS=OFF -DMODKIT_BUILD_BENCH=OFF
    cmake --build "$build_dir" -j "$jobs" --target modkit
    stage_done "the build"
    "$build_dir/modkit" demo "$build_dir/demo"
    stage_done "the demo"
    ;;
  test)
    install_missing "${test_packages[@]}"
    stage_done "installing packages"
    configure "$build_dir" -DMODKIT_BUILD_TESTS=ON -DMODKIT_BUILD_BENCH=OFF
    cmake --build "$build_dir" -j "$jobs"
    stage_done "the build"
    # The Khronos glTF validator for tests/cli/test_gltf_validator.cpp, project-local (no
    # global install) in BUILD/tools/node_modules.
    if [ ! -f "$build_dir/tools/node_modules/gltf-validator/package.json" ]; then
      mkdir -p "$build_dir/tools"
      (cd "$build_dir/tools" && npm install --no-audit --no-fund --prefix . gltf-validator >npm.log 2>&1) ||
        echo "build.sh: npm could not install gltf-validator (see $build_dir/tools/npm.log)" >&2
    fi
    stage_done "installing the glTF validator"
    ctest --test-dir "$build_dir" --output-on-failure -j "$jobs"
    stage_done "the tests"
    ;;
  build)
    install_missing
    configure "$build_dir" -DMODKIT_BUILD_TESTS=ON -DMODKIT_BUILD_BENCH=ON
    cmake --build "$build_dir" -j "$jobs"
    ;;
  sanitize)
    install_missing "${test_packages[@]}"
    stage_done "installing packages"
    sanitizer_tests
    ;;
  scalar)
    # Needs the main build's modkit (`bash build.sh test` first); .ci/run runs it.
    install_missing
    # The layers with SSE2 fast paths, built without them: their tests then check the scalar
    # fallbacks that other machines run.
    configure "$build_dir-scalar" -DMODKIT_BUILD_BENCH=OFF -DMODKIT_SCALAR_ONLY=ON
    cmake --build "$build_dir-scalar" -j "$jobs" --target test_scene test_shred
    # (their few command-line cases run the main build's modkit)
    for t in test_scene test_shred; do
      MODKIT_CLI="$build_dir/modkit" "$build_dir-scalar/tests/$t" --log_level=warning --report_level=short
    done
    stage_done "the scalar stage"
    ;;
  *)
    echo "usage: bash build.sh demo|test|build|sanitize|scalar" >&2
    exit 1
    ;;
esac
