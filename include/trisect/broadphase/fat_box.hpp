#pragma once
/// \file
/// How much larger than a proxy's box a dynamic tree stores it (its "fat" box): the margin per
/// proxy and the tree's options.

namespace trisect {

/// How much a proxy's fat box grows on every side: `absolute` plus `relative` times the
/// largest side of the proxy's box, both in the boxes' own units (finite, >= 0). A relative
/// margin scales with the world: boxes of a millimetre and of a kilometre get the same slack
/// relative to their size, so that a small world does not pair everything.
struct FatMargin {
  float absolute = 0.0f;   ///< Growth on every side, whatever the box's size.
  float relative = 0.05f;  ///< Growth on every side per unit of the box's largest side.
  friend bool operator==(const FatMargin&, const FatMargin&) = default;
};

/// How much larger than a proxy's box the tree keeps its stored ("fat") box, so that small
/// motions change nothing in the tree. The fat box of a box B moving by displacement d is B
/// grown on every side by its margin (`FatMargin`: this default, or the proxy's own), then
/// extended by `displacement_multiplier`·d in the direction of d (per axis).
struct FatBoxOptions {
  /// The absolute part of the default margin.
  float margin = 0.0f;
  /// How many frames of the current displacement the fat box anticipates. Box2D
  /// v2 uses 4; 32 measured best for steadily moving boxes (bench/broadphase.cpp, 150 frames,
  /// CPU time per frame: 100k boxes all moving 17.3 ms against 23.0 ms with 16, every tenth
  /// moving 3.20 ms against 3.85 ms; 10k all moving 1.26 ms against 1.47 ms): fewer new fat
  /// boxes for more pairs of fat boxes, which cost little.
  float displacement_multiplier = 32.0f;
  /// The relative part of the default margin: 0.05 of the box's largest side (0.05 to 0.15 for
  /// the benchmark's boxes of sides 1 to 3; Box2D's b2_aabbMargin is 0.1 m for boxes of about
  /// a metre).
  float relative_margin = 0.05f;

  /// The defaults: a relative margin of 0.05, no absolute margin, a multiplier of 32.
  constexpr FatBoxOptions() = default;
  /// An absolute margin `absolute_margin`, the multiplier `multiplier` and a relative margin
  /// `relative` (0 unless given: `FatBoxOptions{0, 0}` keeps the proxies' boxes exactly).
  constexpr FatBoxOptions(float absolute_margin, float multiplier, float relative = 0.0f)
      : margin(absolute_margin), displacement_multiplier(multiplier), relative_margin(relative) {}

  /// The default margin of a proxy, `{margin, relative_margin}`.
  [[nodiscard]] constexpr FatMargin default_margin() const noexcept {
    return {margin, relative_margin};
  }
};

}  // namespace trisect
