#pragma once
/// \file
/// A dynamic bounding volume tree over boxes that move: proxies are inserted, moved and removed
/// one at a time, and the tree stays good by surface-area-guided insertion with tree rotations
/// (Bittner, Hapala, Havran, "Incremental BVH construction for ray tracing", Computers &
/// Graphics 2015; the form of the dynamic trees in Box2D by Erin Catto), and balanced by
/// height as an AVL tree is (Box2D v2.4's rotations), so that no layout of boxes makes it deep.

#include "trisect/broadphase/fat_box.hpp"
#include "trisect/broadphase/traversal_stack.hpp"
#include "trisect/math/aabb.hpp"
#include "trisect/math/ray.hpp"
#include "trisect/math/validate.hpp"

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace trisect {

/// Names a proxy (one box) of a `DynamicAabbTree` or a `Broadphase`. Stable while the proxy
/// lives; once it is destroyed, a later `create_proxy` may hand the same value out again.
using ProxyId = std::uint32_t;

/// Called with each proxy a query reaches; returns false to stop the query there.
template <class Visit>
concept ProxyVisitor = requires(Visit visit, ProxyId id) {
  { visit(id) } -> std::convertible_to<bool>;
};

/// What `DynamicAabbTree::create_proxies` is given for one proxy.
struct NewProxy {
  Aabb box;                                        ///< Its box (finite, min <= max per axis).
  std::uint64_t user_data = 0;                     ///< Its user value.
  std::optional<FatMargin> margin = std::nullopt;  ///< Its margin; none: the tree's default.
};

/// A binary tree of boxes. Leaves are proxies and hold their fat box (see `FatBoxOptions`) and
/// a user value; inner nodes hold the union of their children's boxes. Queries report every
/// proxy whose *fat* box meets the query: callers that need exact answers test their own boxes.
class DynamicAabbTree {
 public:
  /// An empty tree with the given fat box parameters.
  explicit DynamicAabbTree(FatBoxOptions options = {});

  /// Inserts a proxy for `box` (finite, min <= max per axis; points and flat boxes are valid)
  /// carrying `user_data`, with the options' default margin, and returns its id. Throws
  /// `InvalidInput` for a bad box; then the tree is unchanged.
  ProxyId create_proxy(const Aabb& box, std::uint64_t user_data = 0);

  /// As `create_proxy(box, user_data)`, with the proxy's own fat-box margin `margin`. Throws
  /// `InvalidInput` for a bad box or a margin that is negative or not finite (nothing changes).
  ProxyId create_proxy(const Aabb& box, std::uint64_t user_data, FatMargin margin);

  /// Inserts one proxy per element of `proxies`, as a batch: their tree is built by the binned
  /// surface area heuristic of `rebuild()` and joined to the tree whole (the shorter of the two
  /// goes where the taller's nodes of about its height grow least in area, and rotations
  /// restore the balance, as for one insertion), so that the tree is as low as one built from
  /// scratch where it was empty and queries see every proxy at once. Returns their ids, index
  /// for index (which values is unspecified). Every box and margin is checked first: for a bad
  /// one, throws `InvalidInput` naming its index, and nothing changes; nothing changes either
  /// when memory runs out. The batch's proxies count towards the start of a gradual rebuild as
  /// refits do (they were placed without the rest of the tree in view).
  std::vector<ProxyId> create_proxies(std::span<const NewProxy> proxies);

  /// Throws `InvalidInput` naming `index` (the proxy's place in its batch) when `proxy`'s box
  /// or margin is bad: the check `create_proxies` makes of each proxy.
  static void require_new_proxy(const NewProxy& proxy, std::size_t index);

  /// As `create_proxies` with each box's user value 0 and the default margin.
  std::vector<ProxyId> create_proxies(std::span<const Aabb> boxes);

  /// Removes the proxies `ids`, as that many `destroy_proxy` calls would. Throws `InvalidInput`
  /// naming the index of the first id that is not a live proxy or repeats an earlier one; then
  /// nothing changes.
  void destroy_proxies(std::span<const ProxyId> ids);

  /// Gives proxy `id` the fat-box margin `margin`, used from its next new fat box on (its next
  /// `move_proxy` that leaves or far outgrows the stored box). Throws `InvalidInput` for a bad
  /// id or margin (nothing changes).
  void set_margin(ProxyId id, FatMargin margin);

  /// The fat-box margin of proxy `id`. Throws `InvalidInput` when `id` is not a live proxy.
  [[nodiscard]] FatMargin margin(ProxyId id) const;

  /// Removes proxy `id`; its storage is reused by later proxies. Throws `InvalidInput` when
  /// `id` is not a live proxy.
  void destroy_proxy(ProxyId id);

  /// Tells the tree that proxy `id` now has box `box` after moving by `displacement` (finite).
  /// When the stored fat box still contains `box` and is not far larger than needed, nothing
  /// changes and the result is false; otherwise the proxy gets a new fat box and the result is
  /// true. A new fat box that overlaps the old one (a continuous motion) is refitted in place,
  /// with rotations, and counts in `refits_since_rebuild()`; any other is reinserted. Throws
  /// `InvalidInput` for a bad id, box or displacement; then the tree is unchanged.
  bool move_proxy(ProxyId id, const Aabb& box, const Vec3& displacement = Vec3(0.0f));

  /// Throws `InvalidInput` naming proxy `id` when `displacement` is not finite: the check
  /// `move_proxy` makes (and `Broadphase::move_proxy`, before it scales the displacement).
  static void require_displacement(ProxyId id, const Vec3& displacement);

  /// Moves every stored box by `offset` (finite), keeping the tree as it is: each fat box's
  /// faces are moved and rounded one float step outward, so that it holds any box it held moved
  /// by `offset` and rounded to the nearest float; inner boxes are recomputed from them. For a
  /// world whose origin moves (large worlds keep coordinates small around the viewer). Throws
  /// `InvalidInput`, changing nothing, for an offset that is not finite.
  void shift(const Vec3& offset);

  /// Rebuilds the whole tree top down from its leaves: splits chosen by the surface area
  /// heuristic over 16 bins of the leaves' centres per axis, and at the median of the widest
  /// axis for fewer than 8 leaves or coinciding centres (ties by id), so the tree depends on the
  /// leaves only. Ids, fat boxes
  /// and user values stay as they are; `refits_since_rebuild()` starts again from 0.
  void rebuild();

  /// One frame's share of a rebuild spread over many frames (PhysX's way: its scene-query
  /// trees are rebuilt over `dynamicTreeRebuildRateHint` frames while the old tree answers).
  /// When no rebuild is under way and the in-place refits since the last rebuild, with the
  /// proxies joined in batches (`create_proxies` into a tree that had proxies), reach
  /// `gradual_rebuild_start` of the proxies, a new one starts. Its work is spread in phases
  /// over the calls: taking the leaves' fat boxes (each as it is when taken), splitting their
  /// ranges by the same binned SAH as `rebuild()`, giving the new nodes their children's
  /// current boxes, then (the new tree in place) freeing the old nodes. Each call does as much
  /// as the changes (refits, reinsertions, creations, destructions) since the previous call pay
  /// for at a rate that finishes the rebuild within `gradual_rebuild_pace` of the proxies'
  /// worth of changes, and at least 1/256 and at most 1/32 of it (so that no frame carries
  /// much of it). While the new nodes take their children's boxes, a proxy whose fat box
  /// changes passes it up to those that have. The call that gives the last new node its boxes
  /// puts the new tree in place of the old, then removes the proxies destroyed and inserts
  /// those created meanwhile. Until then every
  /// query, move and update works on the old tree as before; destroyed proxies' ids are not
  /// handed out again until the new tree is in place. With no changes meanwhile, the result
  /// is the tree `rebuild()` makes from the same leaves.
  void rebuild_gradually();

  /// A gradual rebuild starts when the in-place refits and batch joins since the last rebuild
  /// reach this fraction of the proxies.
  static constexpr double gradual_rebuild_start = 0.05;
  /// A gradual rebuild is paced to end within this multiple of the proxies' worth of changes
  /// (slow enough that a frame's share stays small beside the frame: at 100k proxies a tenth
  /// of which move, about a twentieth of the rebuild a frame).
  static constexpr double gradual_rebuild_pace = 2.0;

  /// True while a gradual rebuild is under way (started and not yet in place).
  [[nodiscard]] bool is_rebuilding() const noexcept { return gradual_.is_active(); }

  /// How many moves refitted a proxy in place since the tree was created or last rebuilt: each
  /// leaves the proxy where it was in the tree, so the tree's quality drifts as this grows.
  [[nodiscard]] std::size_t refits_since_rebuild() const noexcept { return refits_; }

  /// Visits (in unspecified order) each proxy whose fat box meets the closed box `box`, until
  /// `visit` returns false. Returns false when stopped early. Throws `InvalidInput` for a bad box.
  template <ProxyVisitor Visit>
  bool query(const Aabb& box, Visit&& visit) const;

  /// For each i, calls `visit(i, id)` for each proxy `id` whose fat box meets the closed box
  /// `boxes[i]`: the answers of `query(boxes[i], ...)`, in unspecified order. The searches run
  /// interleaved, several at a time, so that their memory loads overlap (batched traversal as in
  /// ray packets' stream form). Throws `InvalidInput` for a bad box before visiting any.
  template <class Visit>
  void query_each(std::span<const Aabb> boxes, Visit&& visit) const;

  /// Visits each proxy whose fat box meets `ray`: some real t in the closed interval [t_min,
  /// t_max] puts origin + t·direction in the closed box, decided exactly on the given floats (a
  /// double fast path with a proven error bound, exact arithmetic when that cannot decide).
  /// Stops when `visit` returns false, and then returns false. Throws `InvalidInput` for a bad
  /// ray.
  template <ProxyVisitor Visit>
  bool query(const Ray& ray, Visit&& visit) const;

  /// True when some real t in [t_min, t_max] puts origin + t·direction in the closed box `box`,
  /// decided exactly on the given floats (the test of `query(ray, ...)`); the ray must be valid.
  [[nodiscard]] static bool ray_meets(const Ray& ray, const Aabb& box);

  /// The fat box stored for proxy `id`. Throws `InvalidInput` when `id` is not a live proxy.
  [[nodiscard]] const Aabb& fat_box(ProxyId id) const;

  /// The user value of proxy `id`. Throws `InvalidInput` when `id` is not a live proxy.
  [[nodiscard]] std::uint64_t user_data(ProxyId id) const;

  /// The user value of live proxy `id`, unchecked (for visitors inside queries).
  [[nodiscard]] std::uint64_t user_data_unchecked(ProxyId id) const noexcept {
    return links_[id].user_data;
  }

  /// True when `id` names a live proxy.
  [[nodiscard]] bool is_proxy(ProxyId id) const noexcept;

  /// Number of live proxies.
  [[nodiscard]] std::size_t size() const noexcept { return proxy_count_; }

  /// The most by which the heights of an inner node's two children may differ. Every update
  /// keeps it (by rotations, see the class comment), so that the tree's height stays
  /// logarithmic whatever the boxes (nested, identical, chained, of any sizes): at most the
  /// largest h with `fewest_leaves(h)` <= `size()`, which is below 2.16·log2(size()). (1 would
  /// be an AVL tree's bound, 1.44·log2; 3 leaves the area-guided insertion and rotations more
  /// room: on 100k random boxes, a lower area cost than without the balance, at 8% more time
  /// per insertion.)
  static constexpr int max_imbalance = 3;

  /// The fewest proxies of a tree of height `height` whose every inner node keeps
  /// `max_imbalance`: 1 for height 0, else fewest_leaves(height - 1) + fewest_leaves(max(height
  /// - 1 - max_imbalance, 0)) (saturating at SIZE_MAX).
  [[nodiscard]] static std::size_t fewest_leaves(int height) noexcept;

  /// Edges on the longest root-to-leaf path: 0 for one proxy (and for none).
  [[nodiscard]] int height() const noexcept;

  /// Surface area heuristic cost: the sum of the surface areas of the inner nodes' boxes divided
  /// by the root's (0 for fewer than two proxies; 0 when the root's area is 0).
  [[nodiscard]] double sah_cost() const;

  /// Checks every invariant: parent and child links agree, each inner node's box is the union
  /// of its children's, heights are consistent, every node is either in the tree or on the
  /// free list, and the proxy count matches. Throws `std::logic_error` naming the first broken
  /// one.
  void validate() const;

  /// The fat box parameters.
  [[nodiscard]] const FatBoxOptions& options() const noexcept { return options_; }

 private:
  friend class TreeRayCursor;  // the nearest-first walk of ray_cursor.hpp
  static constexpr std::int32_t null_node = -1;

  // What a query reads of an inner node: both children's boxes and indices in one 64-byte cache
  // line, so that opening a node loads one line instead of one per child (children's boxes kept
  // in the parent, as Embree's and Jolt's wide nodes keep them). Leaves use only their `Links`.
  struct alignas(64) Node {
    Aabb box[2] = {};  // copies of the children's `Links::box`
    std::int32_t child[2] = {null_node, null_node};
    // Copies of the children's `Links::height` (0 for a leaf), so that updates weigh heights
    // without loading the children's links. The balance keeps heights below 100.
    std::int16_t height[2] = {0, 0};
    [[nodiscard]] bool is_leaf(int side) const noexcept { return height[side] == 0; }
  };
  static_assert(sizeof(Node) == 64);

  // What updates read: the node's own box (a leaf's fat box; the union of an inner node's
  // children's) and the links up the tree.
  // A node's parent is kept in two slots, the tree's (`parent_slot_`) and the other, where a
  // gradual rebuild links the new tree while the old one still uses the first: putting the
  // new tree in place flips the slot instead of writing every parent link at once.
  struct Links {
    Aabb box = {};
    std::int32_t parents[2] = {null_node, null_node};  // [0]: next free node when free
    std::int16_t height = 0;   // 0 for leaves, -1 when free, -2 destroyed while rebuilding
    std::uint8_t pending = 0;  // its part in the gradual rebuild (`Pending`) and generation
    std::uint64_t user_data = 0;
    FatMargin margin;  // a leaf's
  };
  [[nodiscard]] std::int32_t parent(std::int32_t index) const noexcept {
    return links_[static_cast<std::size_t>(index)].parents[parent_slot_];
  }
  void set_parent(std::int32_t index, std::int32_t parent) noexcept {
    links_[static_cast<std::size_t>(index)].parents[parent_slot_] = parent;
  }
  // True when node `index` is an inner node of the tree (not one of a gradual rebuild's new
  // nodes before they are in place, nor an old one after, not yet freed).
  [[nodiscard]] bool is_tree_inner(std::size_t index) const noexcept {
    return links_[index].height > 0 && (links_[index].pending & new_generation) == generation_;
  }
  // True when node `index` is one of a gradual rebuild's new nodes that has its children's
  // boxes (`installed`), before the new tree is in place.
  [[nodiscard]] bool is_installed(std::size_t index) const noexcept {
    const Links& links = links_[index];
    return links.height > 0 && (links.pending & new_generation) != generation_ &&
           (links.pending & installed) != 0;
  }

  // The fat box of `box` grown by `growth` and stretched by `ahead` (see `FatBoxOptions`).
  [[nodiscard]] static Aabb fat(const Aabb& box, float growth, const Vec3& ahead) noexcept;
  // How much leaf `leaf`'s fat box for `box` grows on every side (its `FatMargin`).
  [[nodiscard]] float growth_of(std::int32_t leaf, const Aabb& box) const noexcept;
  static void require_margin(const FatMargin& margin);
  void require_proxy(ProxyId id) const;
  static void require_box(const Aabb& box);
  std::int32_t allocate_node();
  void free_node(std::int32_t index) noexcept;
  [[nodiscard]] std::int32_t find_best_sibling(const Aabb& box, int height) const;
  [[nodiscard]] static int descend_side(const Node& node, const double (&lower_bound)[2]) noexcept;
  // Inserts the leaf or detached subtree `node` (its box and height set) into the tree.
  void insert_subtree(std::int32_t node);
  void remove_leaf(std::int32_t leaf);
  // Takes live leaf `leaf` out of the tree and frees it (or keeps it as a ghost of the gradual
  // rebuild, for which the caller made room).
  void remove_proxy(std::int32_t leaf) noexcept;
  [[nodiscard]] int side_of(std::int32_t parent, std::int32_t child) const noexcept;
  // Makes `child` the child of `parent` on `side`, copying its box and height there.
  void set_child(std::int32_t parent, int side, std::int32_t child) noexcept;
  // Sets node `index`'s box and height, and their copies in the parent.
  void set_box(std::int32_t index, const Aabb& box, std::int32_t height) noexcept;
  void refit_upward(std::int32_t index, bool improve_area, bool until_unchanged);
  bool rotate(std::int32_t index, bool improve_area);
  void swap_children(std::int32_t parent_a, std::int32_t a, std::int32_t parent_b,
                     std::int32_t b) noexcept;
  bool refit(std::int32_t index) noexcept;  // true when the box or height changed
  // A leaf's fat box, its centre and its node, side by side for the build. The binning loads
  // four floats from each of min, max and center: the fourth is the next member's.
  struct BuildLeaf {
    Aabb box;
    Vec3 center;
    std::int32_t node;
  };
  static_assert(sizeof(Aabb) == 24 && sizeof(Vec3) == 12 && sizeof(BuildLeaf) == 40);
  // Ranges of fewer leaves than this are split at the median (their SAH gains are small).
  static constexpr std::size_t median_split_below = 8;
  struct BuildSplit {  // leaves [begin, middle) go left, with the centres' bounds of each side
    std::size_t middle;
    Aabb left_centers = Aabb::empty();
    Aabb right_centers = Aabb::empty();
  };
  // The builds' leaves, and the room a partition needs beside them.
  struct BuildLeaves {
    std::vector<BuildLeaf> leaves;
    std::vector<BuildLeaf> scratch;     // where a partition copies them
    std::vector<std::uint8_t> bin_ids;  // each leaf's bin, from a range's first
    // Sizes the room for `leaves` (may throw: before the build changes anything).
    void make_room() {
      scratch.resize(leaves.size());
      bin_ids.resize(leaves.size());
    }
  };
  std::int32_t build_subtree(BuildLeaves& build, std::size_t begin, std::size_t end,
                             const Aabb& centers);
  [[nodiscard]] static BuildSplit sah_partition(BuildLeaves& build, std::size_t begin,
                                                std::size_t end, const Aabb& centers);
  [[nodiscard]] static BuildSplit median_partition(std::vector<BuildLeaf>& leaves,
                                                   std::size_t begin, std::size_t end,
                                                   const Aabb& centers);
  // One range's split: by `sah_partition`, else (small ranges, coinciding centres, no split
  // that keeps the balance) by `median_partition`.
  [[nodiscard]] static BuildSplit split_range(BuildLeaves& build, std::size_t begin,
                                              std::size_t end, const Aabb& centers);
  template <class Overlaps, ProxyVisitor Visit>
  bool traverse(const Overlaps& overlaps, Visit& visit) const;
  template <class Overlaps, ProxyVisitor Visit>
  bool expand(const Node& node, const Overlaps& overlaps, Visit& visit,
              TraversalStack& stack) const;

  FatBoxOptions options_;
  std::vector<Node> nodes_;
  std::vector<Links> links_;  // beside nodes_, index for index
  std::int32_t root_ = null_node;
  std::int32_t free_list_ = null_node;
  std::size_t proxy_count_ = 0;
  std::size_t refits_ = 0;
  std::size_t joined_ = 0;   // proxies joined to the tree in batches since the last rebuild
  std::size_t changes_ = 0;  // refits, reinsertions, creations and destructions, ever

  // `Links::pending` bits.
  enum Pending : std::uint8_t {
    pending_leaf = 1,     // a leaf the gradual rebuild places
    installed = 2,        // an inner node of the gradual rebuild that has its children's boxes
    pending_created = 4,  // a leaf created during it, inserted when it is put in place
    // An inner node's generation: the tree's inner nodes have `generation_`; a gradual
    // rebuild makes its new nodes with the other value, and putting them in place flips
    // `generation_`, which leaves the old nodes to be freed a share at a time.
    new_generation = 8,
  };
  std::uint8_t generation_ = 0;  // 0 or new_generation
  int parent_slot_ = 0;          // which of `Links::parents` the tree uses
  // The rebuild under way (see `rebuild_gradually`), in phases.
  enum class Phase : std::uint8_t {
    idle,
    gathering,   // taking the leaves, in storage order
    splitting,   // splitting their ranges into the new tree's nodes, top down
    installing,  // giving its nodes their children's boxes, bottom up (the old tree answers)
    sweeping,    // the new tree in place: freeing the old nodes, in storage order
  };
  struct GradualRebuild {
    struct Range {  // leaves [begin, end) to build, as child `side` of pending node `parent`
      std::size_t begin, end;
      Aabb centers;
      std::int32_t parent;
      int side;
    };
    Phase phase = Phase::idle;
    std::size_t cursor = 0;             // the next node to gather or sweep, or nodes to install
    Aabb centers = Aabb::empty();       // of the leaves gathered
    BuildLeaves build;                  // the leaves gathered
    std::vector<Range> ranges;          // to split
    std::vector<std::int32_t> nodes;    // its inner nodes, parents before children
    std::vector<std::int32_t> created;  // leaves created since it started
    std::vector<std::int32_t> ghosts;   // its leaves destroyed since it started
    std::int32_t root = null_node;
    double work_per_change = 0;  // work units one change pays for
    double minimum_work = 0;     // work units per call at least
    double maximum_work = 0;     // and at most
    std::size_t changes_seen = 0;
    // True from the start of the gathering to the new tree's being put in place.
    [[nodiscard]] bool is_active() const noexcept {
      return phase != Phase::idle && phase != Phase::sweeping;
    }
  };
  void start_gradual_rebuild();
  // Each does up to `work` units of its phase and returns what is left of `work`.
  double gather_leaves(double work);
  double split_ranges(double work);
  double install_nodes(double work);
  double sweep_old_nodes(double work);
  void split_pending_range();
  void put_new_tree_in_place();
  // Notes that leaf `leaf`'s box changed: while a rebuild installs its nodes, the new tree's
  // installed ancestors of the leaf take the change.
  void note_box_changed(std::int32_t leaf) noexcept;
  void cancel_gradual_rebuild() noexcept;
  GradualRebuild gradual_;
};

}  // namespace trisect

// The definitions of the query templates above.
#include "trisect/broadphase/detail/dynamic_tree_queries.hpp"
