// The pairs of a `Broadphase` from frame to frame. Every pair whose fat boxes overlap is a record
// linked into both of its proxies' lists (Box2D v3 links each contact into its two shapes'
// contact lists the same way), so that a frame walks the lists of the proxies that moved or
// were destroyed, and the pairs of proxies that stayed cost nothing. The frame's events are
// then sorted, and the sorted list of overlapping pairs takes them in by block moves.
#include "trisect/broadphase/broadphase.hpp"

#include "reserve_more.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace trisect {

std::uint32_t Broadphase::add_fat_pair(const ProxyPair& pair, std::uint8_t state) noexcept {
  std::uint32_t record = free_fat_pair_;
  if (record == no_pair) {
    record = static_cast<std::uint32_t>(fat_pairs_.size());
    fat_pairs_.emplace_back();  // room made by the caller
  } else {
    free_fat_pair_ = fat_pairs_[record].next[0];
  }
  FatPair& fat = fat_pairs_[record];
  fat = FatPair{pair, {no_pair, no_pair}, {no_pair, no_pair}, state};
  const ProxyId ends[2] = {pair.first, pair.second};
  for (int side = 0; side < 2; ++side) {  // at the front of each list
    std::uint32_t& head = pair_lists_[ends[side]];
    if (head != no_pair) {
      FatPair& old = fat_pairs_[head];
      old.prev[side_in(old, ends[side])] = record;
    }
    fat.next[side] = head;
    head = record;
  }
  return record;
}

void Broadphase::remove_fat_pair(std::uint32_t record) noexcept {
  FatPair& fat = fat_pairs_[record];
  const ProxyId ends[2] = {fat.pair.first, fat.pair.second};
  for (int side = 0; side < 2; ++side) {
    const std::uint32_t prev = fat.prev[side], next = fat.next[side];
    if (prev == no_pair) {
      pair_lists_[ends[side]] = next;
    } else {
      FatPair& before = fat_pairs_[prev];
      before.next[side_in(before, ends[side])] = next;
    }
    if (next != no_pair) {
      FatPair& after = fat_pairs_[next];
      after.prev[side_in(after, ends[side])] = prev;
    }
  }
  fat.next[0] = free_fat_pair_;
  fat.state = is_free_record;
  free_fat_pair_ = record;
}

void Broadphase::record_event(const FatPair& pair, bool is_overlapping) {
  const PairKind kind = (pair.state & is_sensor_pair) != 0 ? PairKind::sensor : PairKind::contact;
  events_.push_back({pair.pair, kind, is_overlapping});
}

// Decides pair `record`, one of whose proxies moved (its box, fat box, filter or layer changed,
// or it is new) or was destroyed: whether it stays (both proxies live, and found again by the
// searches if a fat box changed), and whether its boxes overlap now.
void Broadphase::advance_pair(std::uint32_t record, const std::vector<ProxyPair>& found) {
  FatPair& fat = fat_pairs_[record];
  const std::uint8_t first = flags_[fat.pair.first], second = flags_[fat.pair.second];
  bool is_kept = (first & second & alive) != 0;
  if (is_kept && ((first | second) & fat_changed) != 0) {
    const auto at = std::lower_bound(found.begin(), found.end(), fat.pair);
    is_kept = at != found.end() && *at == fat.pair;
    if (is_kept) is_found_[static_cast<std::size_t>(at - found.begin())] = 1;
  }
  const bool was = (fat.state & was_overlapping) != 0;
  const bool is = is_kept && boxes_[fat.pair.first].overlaps(boxes_[fat.pair.second]);
  if (is != was) record_event(fat, is);
  if (is_kept) {
    fat.state =
        static_cast<std::uint8_t>((fat.state & is_sensor_pair) | (is ? was_overlapping : 0));
    settle_pair(fat.pair.first, fat.pair.second);
  } else {
    remove_fat_pair(record);
  }
}

// The pairs in proxy `id`'s list; a pair of two changed proxies is decided in the list of the
// smaller, once.
void Broadphase::advance_pairs_of(ProxyId id, const std::vector<ProxyPair>& found) {
  std::uint32_t record = pair_lists_[id];
  while (record != no_pair) {
    const FatPair& fat = fat_pairs_[record];
    const int side = side_in(fat, id);
    const std::uint32_t next = fat.next[side];
    const ProxyId other = side == 0 ? fat.pair.second : fat.pair.first;
    if (!(is_changed(other) && other < id)) advance_pair(record, found);
    record = next;
  }
}

void Broadphase::advance_pairs(const std::vector<ProxyPair>& found) {
  events_.clear();
  is_found_.assign(found.size(), 0);
  find_unsettled();
  const std::size_t changed = unsettled_.size() + destroyed_.size();
  if (changed * walk_lists_below < proxies_.size()) {
    // Few proxies changed: their lists, whose records lie anywhere in the pool (the first of
    // each list is fetched a few proxies ahead).
    constexpr std::size_t ahead = 8;
    for (std::size_t k = 0; k < unsettled_.size(); ++k) {
      if (k + ahead < unsettled_.size()) {
        const std::uint32_t later = pair_lists_[unsettled_[k + ahead]];
        if (later != no_pair) __builtin_prefetch(&fat_pairs_[later]);
      }
      advance_pairs_of(unsettled_[k], found);
    }
    for (const ProxyId id : destroyed_)
      if ((flags_[id] & unsettled) == 0) advance_pairs_of(id, found);  // else done above
  } else {
    // Many changed: one pass over the pool in storage order is faster than chasing the lists.
    for (std::uint32_t record = 0; record < fat_pairs_.size(); ++record) {
      const FatPair& fat = fat_pairs_[record];
      if ((fat.state & is_free_record) == 0 &&
          (is_changed(fat.pair.first) || is_changed(fat.pair.second)))
        advance_pair(record, found);
    }
  }
  detail::reserve_more(fat_pairs_, found.size());
  for (std::size_t k = 0; k < found.size(); ++k) {
    if (is_found_[k] != 0) continue;  // an existing pair, decided above
    const ProxyPair& pair = found[k];
    const bool has_sensor = ((flags_[pair.first] | flags_[pair.second]) & sensor) != 0;
    const bool is = boxes_[pair.first].overlaps(boxes_[pair.second]);
    const std::uint32_t record = add_fat_pair(
        pair,
        static_cast<std::uint8_t>((has_sensor ? is_sensor_pair : 0) | (is ? was_overlapping : 0)));
    if (is) record_event(fat_pairs_[record], true);
    settle_pair(pair.first, pair.second);
  }
  std::sort(events_.begin(), events_.end());
  began_.clear();
  ended_.clear();
  began_kinds_.clear();
  ended_kinds_.clear();
  for (const Event& event : events_) {
    (event.began ? began_ : ended_).push_back(event.pair);
    (event.began ? began_kinds_ : ended_kinds_).push_back(event.kind);
  }
  apply_events();
  settle();
}

namespace {

// 1 - 2^-50: a double times it lies below the exact value of which the double is an
// approximation within a few units in the last place (a difference of two floats, or of two
// such doubles, rounded once).
constexpr double below = 1 - 0x1p-50;

// The largest float no larger than `value` (>= 0).
float float_below(double value) noexcept {
  const auto rounded = static_cast<float>(value);
  return double(rounded) > value ? std::nextafter(rounded, 0.0f) : rounded;
}

// No larger than the clearance of closed boxes `a` and `b`: the smallest depth of their overlap
// over the axes when they overlap (0 when they touch), the largest gap otherwise. Any boxes
// whose faces lie within s and t of theirs overlap alike when the depth is >= s + t, and are
// apart alike when the gap is > s + t.
double clearance(const Aabb& a, const Aabb& b) noexcept {
  if (a.overlaps(b)) {
    double depth = std::numeric_limits<double>::infinity();
    for (int axis = 0; axis < 3; ++axis)
      depth = std::min({depth, double(b.max[axis]) - double(a.min[axis]),
                        double(a.max[axis]) - double(b.min[axis])});
    return depth * below;
  }
  double gap = 0;
  for (int axis = 0; axis < 3; ++axis)
    gap = std::max({gap, double(b.min[axis]) - double(a.max[axis]),
                    double(a.min[axis]) - double(b.max[axis])});
  return gap * below;
}

// True when every face of `box` lies within `slack` of `reference`'s (each difference rounded
// at most once, so moved up by 2^-50 of itself to be no less than the exact one).
bool stays_within(const Aabb& box, const Aabb& reference, float slack) noexcept {
  double drift = 0;
  for (int axis = 0; axis < 3; ++axis)
    drift = std::max({drift, std::abs(double(box.min[axis]) - double(reference.min[axis])),
                      std::abs(double(box.max[axis]) - double(reference.max[axis]))});
  return drift * (1 + 0x1p-50) <= double(slack);
}

}  // namespace

// The moved proxies that left their slack, or whose fat box changed, are unsettled: their
// reference becomes their box, and their slack is found anew from their pairs (`settle_pair`),
// which costs about what deciding those pairs costs and pays only when it keeps the proxy at
// rest for a while. So a proxy whose last slack did not keep it at rest for two frames (a body
// in motion) waits twice as long as before for the next (up to 2^6 frames), with slack 0
// meanwhile; one whose slack paid finds the next at once.
void Broadphase::find_unsettled() {
  unsettled_.clear();
  for (const ProxyId id : moved_) {
    const std::uint8_t flags = flags_[id];
    if ((flags & alive) == 0) continue;  // destroyed: its pairs end
    Rest& rest = rests_[id];
    if ((flags & fat_changed) == 0 && stays_within(boxes_[id], rest.reference, rest.slack))
      continue;                                          // at rest: its pairs stay as they are
    if (rest.last_unsettled == rest.last_slack_found) {  // how long did that slack hold?
      const bool paid = frame_ - rest.last_unsettled > 2;
      rest.wait = paid ? 0 : static_cast<std::uint8_t>(std::min(rest.wait + 1, 6));
    }
    const bool finds_slack = frame_ - rest.last_slack_found >= (1u << rest.wait);
    if (finds_slack) rest.last_slack_found = frame_;
    rest.last_unsettled = frame_;
    flags_[id] |= finds_slack ? unsettled | finds_own_slack : unsettled;
    rest.reference = boxes_[id];
    proposed_slacks_[id] = finds_slack ? std::numeric_limits<double>::infinity() : 0.0;
    unsettled_.push_back(id);
  }
}

// Keeps the slacks of the pair of `a` and `b` (kept this frame, one of them unsettled) within
// their references' clearance: an unsettled proxy that finds its slack may take half of it when
// the other is unsettled too, else what the other's slack leaves. A settled one whose slack
// would leave nothing (or that did not move, beside a partner that takes slack 0) takes its
// current box as its reference with slack 0 (its box may never move again, so its slack must
// hold it as it is): its other pairs keep their bounds, since its box lies within its old slack
// of its old reference and so the clearances to it shrink by no more than that slack.
void Broadphase::settle_pair(ProxyId a, ProxyId b) {
  const auto finds = [&](ProxyId id) { return (flags_[id] & finds_own_slack) != 0; };
  const bool unsettled_a = (flags_[a] & unsettled) != 0, unsettled_b = (flags_[b] & unsettled) != 0;
  if (unsettled_a && unsettled_b) {
    if (!finds(a) && !finds(b)) return;  // both keep slack 0
    const double room = clearance(rests_[a].reference, rests_[b].reference);
    for (const ProxyId id : {a, b})
      if (finds(id)) proposed_slacks_[id] = std::min(proposed_slacks_[id], room / 2);
    return;
  }
  const ProxyId mover = unsettled_a ? a : b, settled = unsettled_a ? b : a;
  if ((flags_[settled] & has_slack) == 0 && !finds(mover)) return;  // 0 + 0: nothing to keep
  Rest& rest = rests_[settled];
  const auto pin = [&] {
    rest.reference = boxes_[settled];
    set_slack(settled, 0);
  };
  if (!finds(mover)) {
    // A settled proxy that did not move this frame has no use for its slack, nor one whose
    // slacks have not been paying and that was unsettled two frames ago (a body in motion, at
    // rest between two steps): pinned at once.
    // One at rest that moved within its slack keeps it while the pair leaves room (a resting
    // body's jitter).
    const bool rests =
        (flags_[settled] & moved) != 0 && (rest.wait == 0 || frame_ - rest.last_unsettled > 2);
    if (!rests || clearance(rests_[mover].reference, rest.reference) < double(rest.slack)) pin();
    return;
  }
  double left = clearance(rests_[mover].reference, rest.reference) - double(rest.slack);
  if (left <= 0) {
    pin();
    left = clearance(rests_[mover].reference, rest.reference);
  }
  proposed_slacks_[mover] = std::min(proposed_slacks_[mover], left * below);
}

void Broadphase::set_slack(ProxyId id, float slack) noexcept {
  rests_[id].slack = slack;
  flags_[id] =
      static_cast<std::uint8_t>(slack != 0 ? flags_[id] | has_slack : flags_[id] & ~has_slack);
}

// The unsettled proxies' slacks, from what their pairs allowed (no pairs: no limit).
void Broadphase::settle() {
  constexpr double largest = std::numeric_limits<float>::max();
  for (const ProxyId id : unsettled_) {
    set_slack(id, float_below(std::min(proposed_slacks_[id], largest)));
    flags_[id] &= static_cast<std::uint8_t>(~finds_own_slack);
  }
  ++frame_;
}

// Ended pairs leave by moving the blocks between them down; began pairs come in from the back,
// the blocks between them moving up: each element moves at most twice, by block copies.
void Broadphase::apply_events() {
  std::size_t write = 0, read = 0;
  const auto move_down = [&](std::size_t to) {
    std::copy(pairs_.begin() + std::ptrdiff_t(read), pairs_.begin() + std::ptrdiff_t(to),
              pairs_.begin() + std::ptrdiff_t(write));
    std::copy(pair_kinds_.begin() + std::ptrdiff_t(read), pair_kinds_.begin() + std::ptrdiff_t(to),
              pair_kinds_.begin() + std::ptrdiff_t(write));
    write += to - read;
  };
  for (const ProxyPair& gone : ended_) {
    const auto at = std::lower_bound(pairs_.begin() + std::ptrdiff_t(read), pairs_.end(), gone);
    const auto index = static_cast<std::size_t>(at - pairs_.begin());
    move_down(index);
    read = index + 1;  // the ended pair is there: it overlapped at the last update
  }
  move_down(pairs_.size());
  pairs_.resize(write);
  pair_kinds_.resize(write);
  std::size_t end = pairs_.size(), out = end + began_.size();
  pairs_.resize(out);
  pair_kinds_.resize(out);
  for (std::size_t k = began_.size(); k-- > 0;) {
    const auto at =
        std::lower_bound(pairs_.begin(), pairs_.begin() + std::ptrdiff_t(end), began_[k]);
    const auto index = static_cast<std::size_t>(at - pairs_.begin());
    std::copy_backward(pairs_.begin() + std::ptrdiff_t(index), pairs_.begin() + std::ptrdiff_t(end),
                       pairs_.begin() + std::ptrdiff_t(out));
    std::copy_backward(pair_kinds_.begin() + std::ptrdiff_t(index),
                       pair_kinds_.begin() + std::ptrdiff_t(end),
                       pair_kinds_.begin() + std::ptrdiff_t(out));
    out -= end - index + 1;
    pairs_[out] = began_[k];
    pair_kinds_[out] = began_kinds_[k];
    end = index;
  }
}

// Each live or destroyed proxy's list holds records of its own pairs, linked both ways; every
// record in use is in both of its proxies' lists; `pairs_` is, ascending, the pairs whose
// records say they overlapped at the last update.
void Broadphase::validate_pairs() const {
  const auto fail = [](const std::string& what) {
    throw std::logic_error("Broadphase::validate: " + what);
  };
  std::vector<ProxyPair> overlapping;
  std::size_t links = 0;
  for (ProxyId id = 0; id < pair_lists_.size(); ++id) {
    std::uint32_t prev = no_pair;
    for (std::uint32_t record = pair_lists_[id]; record != no_pair;) {
      if (record >= fat_pairs_.size())
        fail("proxy " + std::to_string(id) + "'s pair list is broken");
      const FatPair& fat = fat_pairs_[record];
      if (fat.pair.first != id && fat.pair.second != id)
        fail("proxy " + std::to_string(id) + "'s list holds a pair without it");
      if (!(fat.pair.first < fat.pair.second)) fail("a pair is not in ascending order");
      const int side = side_in(fat, id);
      if (fat.prev[side] != prev) fail("proxy " + std::to_string(id) + "'s pair list is broken");
      if (side == 0 && (fat.state & was_overlapping) != 0) overlapping.push_back(fat.pair);
      const Rest& a = rests_[fat.pair.first];
      const Rest& b = rests_[fat.pair.second];
      if (side == 0 && double(a.slack) + double(b.slack) >
                           clearance(a.reference, b.reference) / below * (1 + 0x1p-48))
        fail("the slacks of pair (" + std::to_string(fat.pair.first) + ", " +
             std::to_string(fat.pair.second) + ") exceed their references' clearance");
      ++links;
      prev = record;
      record = fat.next[side];
    }
  }
  std::size_t free_records = 0;
  for (std::uint32_t record = free_fat_pair_; record != no_pair;
       record = fat_pairs_[record].next[0])
    if (++free_records > fat_pairs_.size()) fail("the free pair records form a cycle");
  if (links != 2 * (fat_pairs_.size() - free_records))
    fail("a pair record is not in both of its proxies' lists");
  std::sort(overlapping.begin(), overlapping.end());
  if (overlapping != pairs_) fail("pairs() differs from the overlapping pair records");
}

}  // namespace trisect
