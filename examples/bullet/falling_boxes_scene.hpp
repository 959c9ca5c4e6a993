#pragma once
/// \file
/// A Bullet world of boxes falling onto a static floor, with Bullet's broadphase or trisect's
/// behind it: the scene that `bullet_falling_boxes`, the adapter's test and
/// `bench_physics_step` share, so that every run of a size starts from the same state.

#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorld.h>
#include <btBulletCollisionCommon.h>
#include <btBulletDynamicsCommon.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace trisect::bullet {

/// Which broadphase a world finds its pairs with.
enum class BroadphaseKind {
  trisect,  ///< `trisect::bullet::BroadphaseAdapter`.
  bullet,   ///< Bullet's own `btDbvtBroadphase`.
};

/// The broadphase named `name` ("trisect" or "bullet"); none for any other name.
[[nodiscard]] std::optional<BroadphaseKind> broadphase_named(std::string_view name);

/// The name of `kind`: "trisect" or "bullet".
[[nodiscard]] const char* name_of(BroadphaseKind kind);

/// How the bodies of a world ended up (of the falling boxes; the floor is not counted).
struct PileOutcome {
  int boxes = 0;          ///< Falling boxes.
  int resting = 0;        ///< Boxes asleep, or slower than `FallingBoxesScene::rest_speed`.
  int asleep = 0;         ///< Boxes Bullet deactivated (asleep with their island).
  int below_floor = 0;    ///< Boxes with a corner below `FallingBoxesScene::lowest_allowed`.
  float top = 0;          ///< The highest box centre.
  float mean_height = 0;  ///< The mean height of the box centres.
};

/// `box_count` unit cubes (mass 1, friction 0.8, angular damping 0.2) on a jittered lattice
/// about four layers high above a static floor (a box 200 m square whose top is y = 0), falling
/// under gravity into a pile that sleeps within about 15 s, stepped at 60 Hz; the same seeded
/// start for either broadphase. The floor is a large box rather than a
/// plane, as trisect needs finite boxes (Bullet's planes have huge boxes).
class FallingBoxesScene {
 public:
  /// One step of the simulation: 1/60 s.
  static constexpr float time_step = 1.0f / 60.0f;
  /// The height of the floor's top face.
  static constexpr float floor_top = 0.0f;
  /// How far below the floor's top a resting box's lowest corner may sink (contact slop).
  static constexpr float sink_tolerance = 0.05f;
  /// The lowest height a box's corner may reach without counting as through the floor.
  static constexpr float lowest_allowed = floor_top - sink_tolerance;
  /// A box slower than this (m/s, linear) counts as resting.
  static constexpr float rest_speed = 0.05f;

  /// The scene with `box_count` boxes (> 0) dropped from the lattice seeded by `seed`, its world
  /// using the broadphase `kind`.
  FallingBoxesScene(BroadphaseKind kind, int box_count, std::uint32_t seed = 1);
  ~FallingBoxesScene();
  FallingBoxesScene(const FallingBoxesScene&) = delete;
  FallingBoxesScene& operator=(const FallingBoxesScene&) = delete;

  /// Advances the world by `time_step` (one `stepSimulation`).
  void step();

  /// The world (its collision objects: the floor, then the boxes).
  [[nodiscard]] btDiscreteDynamicsWorld& world() noexcept { return *world_; }

  /// The world's broadphase.
  [[nodiscard]] btBroadphaseInterface& broadphase() noexcept { return *broadphase_; }

  /// The broadphase the world uses.
  [[nodiscard]] BroadphaseKind kind() const noexcept { return kind_; }

  /// How the boxes are now.
  [[nodiscard]] PileOutcome outcome() const;

 private:
  void add_floor();
  void add_boxes(int box_count, std::uint32_t seed);
  void add_body(float mass, btCollisionShape& shape, const btTransform& start);

  BroadphaseKind kind_;
  // Destroyed in reverse: the world first (it destroys its objects' proxies), then the bodies,
  // shapes, solver, broadphase, dispatcher and configuration it used.
  std::unique_ptr<btDefaultCollisionConfiguration> configuration_;
  std::unique_ptr<btCollisionDispatcher> dispatcher_;
  std::unique_ptr<btBroadphaseInterface> broadphase_;
  std::unique_ptr<btSequentialImpulseConstraintSolver> solver_;
  std::unique_ptr<btBoxShape> floor_shape_;
  std::unique_ptr<btBoxShape> box_shape_;
  std::vector<std::unique_ptr<btRigidBody>> bodies_;  // the floor, then the boxes
  std::unique_ptr<btDiscreteDynamicsWorld> world_;
};

}  // namespace trisect::bullet
