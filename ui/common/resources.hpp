#pragma once
// The library's Qt resources (shaders) live in a static library, whose resource initialiser the
// linker would drop unless something references it: call this before reading ":/..." paths.

namespace cineflow::ui {

void initResources();  // idempotent

}  // namespace cineflow::ui
