#pragma once
/// \file
/// Pair finding for moving boxes, frame after frame: which proxies' boxes began or stopped
/// overlapping. Two dynamic AABB trees, a static layer and a dynamic layer (as Bullet's
/// btDbvtBroadphase and Jolt's broadphase layers separate them), and a cache of the pairs whose
/// fat boxes overlap, so that only proxies that left their fat box search a tree (Box2D v3's
/// move buffer), kept in lists per proxy so that a frame looks at the pairs of the proxies that
/// changed and no others.

#include "trisect/broadphase/dynamic_aabb_tree.hpp"
#include "trisect/broadphase/proxy.hpp"
#include "trisect/broadphase/ray_cursor.hpp"
#include "trisect/math/sphere.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace trisect {

/// Broadphase of boxes in two layers. A frame is: `move_proxy` (and `create_proxy`,
/// `destroy_proxy`) for whatever changed, then `update`, which reports the pairs whose
/// proxies' boxes (the boxes given, not the fat ones) began or stopped overlapping since the
/// previous update. Boxes are closed: touching counts as overlapping. Each pair is reported
/// once, smaller id first, never a proxy with itself, in ascending order (first, then second),
/// whatever the number of TBB threads (`update` runs its searches on TBB's worker threads).
class Broadphase {
 public:
  /// `update` advances each layer's tree's gradual rebuild (`DynamicAabbTree::
  /// rebuild_gradually`), which puts the proxies that refits left where they were back in
  /// order a share at a time; it rebuilds the tree whole (`DynamicAabbTree::rebuild`) only
  /// when the moves of the frame alone refitted this fraction of its proxies in place (a frame
  /// that moved most of them at once, such as a simulation's first).
  static constexpr double rebuild_after_refits = 0.5;

  /// An empty broadphase; `options` sets both trees' fat boxes.
  explicit Broadphase(FatBoxOptions options = {});

  /// Adds a proxy with box `box` (finite, min <= max per axis; points and flat boxes are
  /// valid) to `layer`, carrying `user_data` (a value or pointer of the caller's, never read
  /// here); it can pair from the next `update` on. Ids of proxies destroyed before the last
  /// `update` are reused. Throws `InvalidInput` for a bad box or a value of `layer` that names
  /// no layer (such as `static_cast<Layer>(2)`); then nothing changes.
  ProxyId create_proxy(const Aabb& box, Layer layer = Layer::dynamic_layer, ProxyFilter filter = {},
                       std::uint64_t user_data = 0);

  /// Adds a proxy with box `box` and the layer, filter, user value, margin and sensor flag of
  /// `options`, as `create_proxy(box, layer, filter, user_data)` does. Throws `InvalidInput` for
  /// a bad box, layer or margin (nothing changes).
  ProxyId create_proxy(const Aabb& box, const ProxyOptions& options);

  /// Adds one proxy per box of `boxes`, all with `options`, as a batch: the same ids, boxes,
  /// layers and events as that many `create_proxy(boxes[i], options)` calls in order, but each
  /// layer's tree gets the batch as one subtree built by the binned surface area heuristic
  /// (`DynamicAabbTree::create_proxies`), faster and better shaped than proxies inserted one at
  /// a time. Returns the ids, index for index. Every box is checked first: for a bad box, layer
  /// or margin throws `InvalidInput` naming the index, and nothing changes.
  std::vector<ProxyId> create_proxies(std::span<const Aabb> boxes,
                                      const ProxyOptions& options = {});

  /// As `create_proxies(boxes, options)` with proxy i given `options[i]`. Throws `InvalidInput`
  /// when the spans' sizes differ, and as above.
  std::vector<ProxyId> create_proxies(std::span<const Aabb> boxes,
                                      std::span<const ProxyOptions> options);

  /// Removes the proxies `ids`, as that many `destroy_proxy` calls would. Throws `InvalidInput`
  /// naming the index of the first id that is not a live proxy or repeats an earlier one; then
  /// nothing changes.
  void destroy_proxies(std::span<const ProxyId> ids);

  /// Removes proxy `id`. Its current pairs are reported as ended by the next `update`, and its
  /// id is not reused before then. Throws `InvalidInput` when `id` is not a live proxy.
  void destroy_proxy(ProxyId id);

  /// Gives proxy `id` its new box after moving by `displacement` (used to stretch its fat box
  /// ahead of the motion). The displacement is first scaled by a factor between 0.5 and 1.5 that
  /// is a fixed function of the id (`anticipation_of`), so that proxies that began moving
  /// together leave their fat boxes in different frames rather than in one wave every
  /// `displacement_multiplier` frames. Throws `InvalidInput` for a bad id, box or displacement
  /// (nothing changes).
  void move_proxy(ProxyId id, const Aabb& box, const Vec3& displacement = Vec3(0.0f));

  /// The factor, in [0.5, 1.5), by which `move_proxy` scales proxy `id`'s displacement.
  [[nodiscard]] static float anticipation_of(ProxyId id) noexcept;

  /// Gives proxy `id` the filter `filter`. From the next `update` on, its pairs follow the new
  /// filter: pairs it now forbids end, pairs it now allows whose boxes overlap begin. Throws
  /// `InvalidInput` when `id` is not a live proxy (nothing changes).
  void set_filter(ProxyId id, ProxyFilter filter);

  /// Moves proxy `id` to `layer`, with the same box. From the next `update` on, its pairs are
  /// those of its new layer (two static proxies never pair). Throws `InvalidInput` for a bad id
  /// or a value that names no layer (nothing changes).
  void set_layer(ProxyId id, Layer layer);

  /// Moves the world's origin: every proxy's box becomes its box moved by `offset`, each face
  /// rounded to the nearest float (as `Aabb{box.min + offset, box.max + offset}` computes it),
  /// without rebuilding the trees (`DynamicAabbTree::shift`). The next `update` reports the
  /// pairs as for those boxes (the roundings may part or join boxes that touch). Throws
  /// `InvalidInput`, changing nothing, for an offset that is not finite or that would take a box
  /// beyond the float range.
  void shift_origin(const Vec3& offset);

  /// Installs `filter` (none: empty) as a further rule on pairs: two proxies that would pair
  /// pair only when `filter(first, second)` (first < second) is true. It is asked when a pair's
  /// fat boxes first meet, from TBB worker threads during `update`, so it must be thread-safe
  /// and give the same answer for the same two proxies until one of them is destroyed or gets
  /// a new filter or layer (then its pairs are asked again). Takes effect for pairs found from
  /// the next `update` on; to apply a new rule to existing pairs, call `set_filter` on the
  /// proxies concerned.
  void set_pair_filter(std::function<bool(ProxyId, ProxyId)> filter) {
    pair_filter_ = std::move(filter);
  }

  /// Gives proxy `id` the fat-box margin `margin`, used from its next new fat box on (see
  /// `DynamicAabbTree::set_margin`); pairs are unaffected. Throws `InvalidInput` for a bad id or
  /// margin (nothing changes).
  void set_margin(ProxyId id, FatMargin margin);

  /// The fat-box margin of proxy `id`. Throws `InvalidInput` when `id` is not a live proxy.
  [[nodiscard]] FatMargin margin(ProxyId id) const;

  /// True when proxy `id` is a sensor (`ProxyOptions::sensor`, fixed at its creation). A
  /// destroyed proxy answers as it was until its id is handed out again, so that the end events
  /// of its pairs can be told apart. Throws `InvalidInput` when `id` never named a proxy.
  [[nodiscard]] bool is_sensor(ProxyId id) const;

  /// Runs `update`'s parallel steps on `executor` (none: TBB's threads, the default). The
  /// answers do not depend on the executor. It must outlive its use (until replaced).
  void set_executor(TaskExecutor executor) { executor_ = std::move(executor); }

  /// Sets the user value of proxy `id`. Throws `InvalidInput` when `id` is not a live proxy.
  void set_user_data(ProxyId id, std::uint64_t user_data);

  /// The user value of proxy `id` (0 unless given). A destroyed proxy keeps its value until its
  /// id is handed out again, so that the end events of its pairs can be mapped back to the
  /// engine's objects. Throws `InvalidInput` when `id` never named a proxy.
  [[nodiscard]] std::uint64_t user_data(ProxyId id) const;

  /// The filter of proxy `id`. Throws `InvalidInput` when `id` is not a live proxy.
  [[nodiscard]] ProxyFilter filter(ProxyId id) const;

  /// The layer of proxy `id`. Throws `InvalidInput` when `id` is not a live proxy.
  [[nodiscard]] Layer layer(ProxyId id) const;

  /// Ends the frame: calls `on_pair_begin(pair)` for every pair whose boxes overlap now but did
  /// not at the previous update (or whose proxies are new), then `on_pair_end(pair)` for every
  /// pair that overlapped then and does not now (or one of whose proxies was destroyed). Both
  /// in ascending order. A callback that takes `(ProxyPair, PairKind)` gets each pair's kind
  /// too.
  ///
  /// The frame is committed before the first call (as by `update_pairs`). When a callback
  /// throws, the exception leaves `update` and the broadphase stays as committed and usable:
  /// `pairs()` is the frame's pairs and `began()` then `ended()` hold all its events, in the
  /// order of the calls; the calls made were for a prefix of that sequence, the last one the
  /// call that threw. The caller can deliver the rest from there: the next update starts a new
  /// frame and does not repeat them.
  template <PairCallback Begin, PairCallback End>
  void update(Begin&& on_pair_begin, End&& on_pair_end) {
    update_pairs();
    for (std::size_t i = 0; i < began_.size(); ++i)
      detail::deliver_pair(on_pair_begin, began_[i], began_kinds_[i]);
    for (std::size_t i = 0; i < ended_.size(); ++i)
      detail::deliver_pair(on_pair_end, ended_[i], ended_kinds_[i]);
  }

  /// Ends the frame without callbacks; `began()` and `ended()` hold its events.
  void update_pairs();

  /// Pairs that began at the last update, ascending.
  [[nodiscard]] const std::vector<ProxyPair>& began() const noexcept { return began_; }

  /// Pairs that ended at the last update, ascending.
  [[nodiscard]] const std::vector<ProxyPair>& ended() const noexcept { return ended_; }

  /// The kinds of the pairs of `began()`, index for index.
  [[nodiscard]] const std::vector<PairKind>& began_kinds() const noexcept { return began_kinds_; }

  /// The kinds of the pairs of `ended()`, index for index.
  [[nodiscard]] const std::vector<PairKind>& ended_kinds() const noexcept { return ended_kinds_; }

  /// The kinds of the pairs of `pairs()`, index for index.
  [[nodiscard]] const std::vector<PairKind>& pair_kinds() const noexcept { return pair_kinds_; }

  /// Every pair overlapping as of the last update, ascending.
  [[nodiscard]] const std::vector<ProxyPair>& pairs() const noexcept { return pairs_; }

  /// Visits each live proxy of either layer whose box (the one given, not the fat one) meets the
  /// closed box `box`, until `visit` returns false; returns false when stopped early. Throws
  /// `InvalidInput` for a bad box.
  template <ProxyVisitor Visit>
  bool query(const Aabb& box, Visit&& visit) const;

  /// Visits each live proxy that `filter` passes whose box (the one given) meets the closed box
  /// `box`, as `query(box, visit)` does. Throws `InvalidInput` for a bad box.
  template <ProxyVisitor Visit>
  bool query(const Aabb& box, const ProxyQueryFilter& filter, Visit&& visit) const;

  /// Visits each live proxy that `filter` passes whose box contains the point `point` (faces
  /// included). Throws `InvalidInput` for a point that is not finite.
  template <ProxyVisitor Visit>
  bool query(const Vec3& point, const ProxyQueryFilter& filter, Visit&& visit) const;

  /// Visits each live proxy that `filter` passes whose box meets the closed ball `ball`
  /// (decided exactly: the point of the box nearest the centre lies within the radius). Throws
  /// `InvalidInput` for a bad ball (a centre that is not finite, a negative or non-finite
  /// radius).
  template <ProxyVisitor Visit>
  bool query(const Sphere& ball, const ProxyQueryFilter& filter, Visit&& visit) const;

  /// Visits each live proxy that `filter` passes whose box meets `ray` between its t_min and
  /// t_max (decided exactly, as `DynamicAabbTree::query(ray, ...)` decides), until `visit`
  /// returns false. Throws `InvalidInput` for a bad ray.
  template <ProxyVisitor Visit>
  bool query(const Ray& ray, const ProxyQueryFilter& filter, Visit&& visit) const;

  /// Casts `ray` into both layers nearest first: calls `visit(id, t_max)` for each live proxy
  /// that `filter` passes whose box (the one given) meets the ray between its t_min and the
  /// current t_max, decided exactly. `visit` returns the new t_max: a smaller value shortens
  /// the ray for every proxy after it (a closest-hit search returns its hit's t), a larger one
  /// is ignored, and a value below t_min ends the cast. Proxies come in increasing order of the
  /// estimated parameter where the ray enters their stored (fat) boxes, the two layers'
  /// trees interleaved by their next estimates (`TreeRayCursor`); the order is a
  /// heuristic, which proxies are visited is not. Returns the final t_max. Throws
  /// `InvalidInput` for a bad ray.
  template <class Visit>
  float cast(const Ray& ray, const ProxyQueryFilter& filter, Visit&& visit) const;

  /// The box last given for proxy `id`. Throws `InvalidInput` when `id` is not a live proxy.
  [[nodiscard]] const Aabb& box(ProxyId id) const;

  /// True when `id` names a live proxy.
  [[nodiscard]] bool is_proxy(ProxyId id) const noexcept {
    return id < flags_.size() && (flags_[id] & alive) != 0;
  }

  /// Number of live proxies in both layers.
  [[nodiscard]] std::size_t size() const noexcept { return trees_[0].size() + trees_[1].size(); }

  /// The tree of `layer` (for statistics and `validate()`); its user values are proxy ids.
  /// Throws `InvalidInput` for a value that names no layer.
  [[nodiscard]] const DynamicAabbTree& tree(Layer layer) const;

  /// Checks every invariant of both trees (`DynamicAabbTree::validate`) and that each proxy's
  /// stored fat box contains its box (what every query relies on, after moves and origin shifts
  /// alike). Throws `std::logic_error` naming the first broken one.
  void validate() const;

 private:
  struct Proxy {
    ProxyId node = 0;  // the leaf in its layer's tree
    Layer layer = Layer::dynamic_layer;
    ProxyFilter filter;
    std::uint64_t user_data = 0;
  };

  [[nodiscard]] bool passes(const ProxyQueryFilter& filter, ProxyId id) const noexcept {
    return filter.passes(proxies_[id].layer, proxies_[id].filter);
  }
  // A finite box holding the ball (validated): its faces rounded outward, clamped to the float
  // range (the proxies' boxes are finite, so no answer is lost).
  [[nodiscard]] static Aabb bounds_of(const Sphere& ball);
  // The ball meets the closed box, exactly.
  [[nodiscard]] static bool ball_meets_box(const Sphere& ball, const Aabb& box);

  // Per-proxy state bits (`flags_`).
  enum : std::uint8_t {
    alive = 1,             // a live proxy
    fat_changed = 2,       // its fat box changed this frame (it is on `fat_changed_`)
    moved = 4,             // its box changed this frame (or it is new)
    sensor = 8,            // a sensor
    unsettled = 16,        // it moved beyond its slack this frame, or its fat box changed
    finds_own_slack = 32,  // unsettled, and finds its slack anew from its pairs
    has_slack = 64,        // its slack is not 0 (kept with it, so that pairs need not look)
  };

  // A pair whose fat boxes overlap, with whether the proxies' own boxes overlapped at the last
  // update (`was_overlapping`) and whether it is a sensor pair: a record of the pool
  // `fat_pairs_`, linked into both proxies' lists of pairs (doubly, as Box2D links a contact
  // into its two shapes' contact lists), so that a frame visits the pairs of the proxies that
  // changed and no others. Link `k` belongs to `pair.first`'s list for k = 0, to
  // `pair.second`'s for k = 1; free records are chained through `next[0]`.
  static constexpr std::uint32_t no_pair = ~std::uint32_t{0};
  struct FatPair {
    ProxyPair pair;
    std::uint32_t next[2] = {no_pair, no_pair};
    std::uint32_t prev[2] = {no_pair, no_pair};
    std::uint8_t state = 0;
  };
  enum : std::uint8_t {
    was_overlapping = 1,
    is_sensor_pair = 2,  // either proxy is a sensor (fixed for the pair's life)
    is_free_record = 4,  // a record of the pool not in use
  };

  // The batch creation: `options` holds one element for all the boxes, or one per box.
  std::vector<ProxyId> create_batch(std::span<const Aabb> boxes,
                                    std::span<const ProxyOptions> options);
  void require_proxy(ProxyId id) const;
  void require_known(ProxyId id) const;  // live, or destroyed and not yet reused
  static void require_layer(Layer layer);
  void mark_fat_changed(ProxyId id);
  void mark_moved(ProxyId id);
  [[nodiscard]] bool may_pair(const Proxy& a, const Proxy& b) const noexcept;
  [[nodiscard]] std::vector<ProxyPair> find_new_fat_pairs();
  void advance_pairs(const std::vector<ProxyPair>& found);
  // Decides one pair whose proxies changed, or those of proxy `id`'s list (see the source).
  void advance_pair(std::uint32_t record, const std::vector<ProxyPair>& found);
  void advance_pairs_of(ProxyId id, const std::vector<ProxyPair>& found);
  // True when proxy `id` is unsettled or was destroyed this frame: its pairs may change.
  [[nodiscard]] bool is_changed(ProxyId id) const noexcept {
    return (flags_[id] & unsettled) != 0 || (flags_[id] & alive) == 0;
  }
  // Marks the moved proxies that left their slack (or whose fat box changed) unsettled.
  void find_unsettled();
  // Keeps pair (a, b)'s slacks within its clearance (see `Rest` and the source).
  void settle_pair(ProxyId a, ProxyId b);
  // The unsettled proxies' new slacks.
  void settle();
  // Gives proxy `id` slack `slack`, keeping its `has_slack` flag.
  void set_slack(ProxyId id, float slack) noexcept;

  // `advance_pairs` walks the changed proxies' lists when fewer than 1 in this many proxies
  // changed, else the whole pool in storage order.
  static constexpr std::size_t walk_lists_below = 4;
  void record_event(const FatPair& pair, bool is_overlapping);
  // `pairs_` (and `pair_kinds_`) without `ended_`, with `began_`, ascending.
  void apply_events();
  std::uint32_t add_fat_pair(const ProxyPair& pair, std::uint8_t state) noexcept;
  void remove_fat_pair(std::uint32_t record) noexcept;
  [[nodiscard]] int side_in(const FatPair& pair, ProxyId id) const noexcept {
    return pair.pair.first == id ? 0 : 1;
  }
  void validate_pairs() const;
  void recycle_destroyed();

  DynamicAabbTree trees_[2];
  std::size_t refits_seen_[2] = {0, 0};  // each tree's refits after the last update
  std::vector<Aabb> boxes_;              // by proxy id: the box last given
  // Where a proxy's pairs were last decided and how far its box may stray from there before
  // they must be decided again: while both proxies of a pair keep every face of their boxes
  // within their slacks of their references, the pair's state cannot change, because the
  // references' clearance (the smallest depth of overlap, or the largest gap) is at least the
  // two slacks' sum (at most, for a gap). A resting pile's jitter then costs no pair work.
  struct Rest {
    Aabb reference;
    float slack = 0;
    // Frames (`frame_`) when it was last unsettled and last found its slack, and how long it
    // waits for the next (2^wait frames; see `find_unsettled`).
    std::uint32_t last_unsettled = ~std::uint32_t{0}, last_slack_found = ~std::uint32_t{0};
    std::uint8_t wait = 0;
  };
  std::vector<Rest> rests_;              // by proxy id
  std::vector<double> proposed_slacks_;  // by proxy id, for `settle`
  std::vector<ProxyId> unsettled_;       // this frame's unsettled proxies
  std::uint32_t frame_ = 0;              // updates so far
  std::vector<Proxy> proxies_;
  std::vector<std::uint8_t> flags_;  // by proxy id
  std::vector<ProxyId> free_ids_;
  std::vector<ProxyId> destroyed_;
  std::vector<ProxyId> fat_changed_;
  std::vector<ProxyId> moved_;
  std::vector<FatPair> fat_pairs_;         // the pool of pair records
  std::uint32_t free_fat_pair_ = no_pair;  // the first free record
  std::vector<std::uint32_t> pair_lists_;  // by proxy id: the first record of its list
  std::vector<std::uint8_t> is_found_;     // for `advance_pairs`, kept for its storage
  struct Event {                           // a pair that began or ended this frame
    ProxyPair pair;
    PairKind kind;
    bool began;
    bool operator<(const Event& other) const noexcept { return pair < other.pair; }
  };
  std::vector<Event> events_;     // for `advance_pairs`, kept for its storage
  std::vector<ProxyPair> pairs_;  // ascending: pairs whose boxes overlap
  std::vector<ProxyPair> began_;
  std::vector<ProxyPair> ended_;
  std::vector<PairKind> began_kinds_;
  std::vector<PairKind> ended_kinds_;
  std::vector<PairKind> pair_kinds_;
  std::function<bool(ProxyId, ProxyId)> pair_filter_;
  TaskExecutor executor_;
};

}  // namespace trisect

// The definitions of the query templates above.
#include "trisect/broadphase/detail/broadphase_queries.hpp"
