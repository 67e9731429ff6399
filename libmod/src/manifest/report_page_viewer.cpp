#include "report_page_viewer.hpp"

#include "report_page_detail.hpp"

namespace mod::manifest::detail::page {

namespace {

// Drives every .viewer block: buttons swap the model, the state line says what is shown, errors
// of the page (uncaught or console.error) are collected so a test can read them back.
constexpr const char* controller = R"js(
(function () {
  var errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message || e)); });
  var consoleError = console.error;
  console.error = function () { errors.push(Array.prototype.join.call(arguments, ' ')); consoleError.apply(console, arguments); };
  var hash = location.hash.match(/^#3d=([^&]+)(&play)?$/) || [];
  var wanted = hash[1] ? decodeURIComponent(hash[1]) : undefined;
  var autoplay = !!hash[2];
  document.querySelectorAll('.viewer').forEach(function (block) {
    var mv = block.querySelector('model-viewer');
    var state = block.querySelector('.viewer-state');
    var play = block.querySelector('.viewer-play');
    var models = block.querySelectorAll('.viewer-model');
    var shown = '';
    function report(extra) {
      var s = { view: shown, loaded: !!mv.loaded, errors: errors.slice() };
      if (mv.loaded) {
        var d = mv.getDimensions();
        s.dims = [d.x, d.y, d.z];
        s.animations = mv.availableAnimations || [];
        s.playing = !mv.paused;
        s.time = mv.currentTime;
      }
      for (var k in extra || {}) s[k] = extra[k];
      state.textContent = JSON.stringify(s);
    }
    function show(i) {
      var m = models[i];
      shown = m.getAttribute('data-label');
      block.querySelectorAll('.viewer-buttons button').forEach(function (b, j) { b.classList.toggle('on', j === i); });
      mv.src = m.getAttribute('data-src');
    }
    // The animation is chosen when played: until then the model stands in its bind pose.
    function chooseAnimation() {
      var anims = mv.availableAnimations || [];
      if (!mv.animationName && anims.length) mv.animationName = anims[0];
      return anims.length > 0;
    }
    mv.addEventListener('load', function () {
      play.hidden = (mv.availableAnimations || []).length === 0;
      if (autoplay && chooseAnimation()) {
        mv.play();
        setTimeout(function () { report(); }, 1500);
      }
      report();
    });
    mv.addEventListener('error', function (e) { errors.push('model-viewer: ' + JSON.stringify(e.detail && e.detail.type)); report(); });
    play.addEventListener('click', function () {
      chooseAnimation();
      if (mv.paused) mv.play(); else mv.pause();
      report();
    });
    block.querySelectorAll('.viewer-buttons button').forEach(function (b, i) { b.addEventListener('click', function () { show(i); }); });
    var first = 0;
    var found = false;
    models.forEach(function (m, i) { if (m.getAttribute('data-label') === wanted) { first = i; found = true; } });
    // A URL naming a view brings it on screen (model-viewer draws, and plays, only when visible).
    if (found) block.scrollIntoView();
    show(first);
  });
})();
)js";

}  // namespace

std::string viewer_block(const std::string& id, const std::vector<ViewerModel>& models) {
    if (models.empty()) return {};
    if (viewer_script().empty())
        return "<p class=\"note\">No interactive 3D view: this modkit was built without model-viewer (bash build.sh "
               "installs it with npm).</p>\n";
    std::string h = "<div class=\"viewer\" id=\"" + esc(id) + "\">\n"
                    "<model-viewer loading=\"eager\" camera-controls interaction-prompt=\"none\" shadow-intensity=\"0\" "
                    "style=\"width:min(100%,480px);height:360px;background:#283040\" alt=\"3D view\"></model-viewer>\n"
                    "<div class=\"viewer-buttons\">";
    for (const auto& m : models) h += "<button type=\"button\">" + esc(m.label) + "</button> ";
    h += "<button type=\"button\" class=\"viewer-play\" hidden>play / pause animation</button></div>\n";
    for (const auto& m : models)
        h += "<span class=\"viewer-model\" hidden data-label=\"" + esc(m.label) + "\" data-src=\"data:model/gltf-binary;base64," +
             base64(m.glb) + "\"></span>\n";
    h += "<pre class=\"viewer-state\">{}</pre>\n<p class=\"note\">Drag to orbit, scroll to zoom; the buttons switch between "
         "the models (the weights views colour each vertex by the bone of its largest weight, as the legend above; the "
         "bones views show the skeleton, orange, inside the model made see-through).</p>\n</div>\n";
    return h;
}

std::string viewer_page_scripts() {
    if (viewer_script().empty()) return {};
    std::string h = "<!-- The 3D view: <model-viewer> " + std::string(viewer_version()) +
                    " (Google, Apache License 2.0; it includes three.js, MIT License) -->\n<script>";
    // A "</script" inside the bundle would end the element early.
    std::string_view js = viewer_script();
    for (std::size_t at = 0; at < js.size();) {
        const std::size_t hit = js.find("</script", at);
        const std::size_t end = hit == std::string_view::npos ? js.size() : hit;
        h.append(js.substr(at, end - at));
        if (hit == std::string_view::npos) break;
        h += "<\\/script";
        at = hit + 8;
    }
    h += "</script>\n<script>";
    h += controller;
    h += "</script>\n";
    return h;
}

}  // namespace mod::manifest::detail::page
