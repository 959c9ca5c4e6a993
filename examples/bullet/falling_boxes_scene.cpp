// The falling-boxes scene shared by the Bullet example, its test and its benchmark
// (falling_boxes_scene.hpp).
#include "falling_boxes_scene.hpp"

#include "trisect_bullet_broadphase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace trisect::bullet {
namespace {

constexpr float box_half = 0.5f;      // the falling boxes are unit cubes
constexpr float floor_half = 100.0f;  // the floor spans [-100, 100] in x and z
constexpr float floor_depth = 1.0f;   // half its thickness
constexpr float lattice_step = 1.7f;  // apart enough that no two tilted boxes start touching
constexpr float first_height = 1.0f;  // the lowest layer's centres
constexpr float jitter = 0.1f;        // the most a box is moved off its lattice point
constexpr float most_tilt = 0.2f;     // radians: the most a box starts rotated
constexpr int layers_wanted = 4;
// Grippy boxes whose spin dies down a little: without these, piles of tilted boxes creep and
// topple for a minute or more (whichever broadphase), with them they sleep within 15 s.
constexpr float friction = 0.8f;
constexpr float angular_damping = 0.2f;

std::unique_ptr<btBroadphaseInterface> make_broadphase(BroadphaseKind kind) {
  if (kind == BroadphaseKind::trisect) return std::make_unique<BroadphaseAdapter>();
  return std::make_unique<btDbvtBroadphase>();
}

// The height of the lowest corner of a box of half-extent `half` placed by `transform`.
float lowest_corner(const btTransform& transform, float half) {
  const btVector3 row = transform.getBasis().getRow(1);
  return transform.getOrigin().y() -
         half * (std::abs(row.x()) + std::abs(row.y()) + std::abs(row.z()));
}

}  // namespace

std::optional<BroadphaseKind> broadphase_named(std::string_view name) {
  if (name == "trisect") return BroadphaseKind::trisect;
  if (name == "bullet") return BroadphaseKind::bullet;
  return std::nullopt;
}

const char* name_of(BroadphaseKind kind) {
  return kind == BroadphaseKind::trisect ? "trisect" : "bullet";
}

FallingBoxesScene::FallingBoxesScene(BroadphaseKind kind, int box_count, std::uint32_t seed)
    : kind_(kind),
      configuration_(std::make_unique<btDefaultCollisionConfiguration>()),
      dispatcher_(std::make_unique<btCollisionDispatcher>(configuration_.get())),
      broadphase_(make_broadphase(kind)),
      solver_(std::make_unique<btSequentialImpulseConstraintSolver>()),
      floor_shape_(std::make_unique<btBoxShape>(btVector3(floor_half, floor_depth, floor_half))),
      box_shape_(std::make_unique<btBoxShape>(btVector3(box_half, box_half, box_half))),
      world_(std::make_unique<btDiscreteDynamicsWorld>(dispatcher_.get(), broadphase_.get(),
                                                       solver_.get(), configuration_.get())) {
  world_->setGravity(btVector3(0, -9.81f, 0));
  add_floor();
  add_boxes(box_count, seed);
}

// The world's destructor destroys the bodies' proxies; the bodies go after it.
FallingBoxesScene::~FallingBoxesScene() = default;

void FallingBoxesScene::step() { world_->stepSimulation(time_step, 1, time_step); }

void FallingBoxesScene::add_floor() {
  btTransform start;
  start.setIdentity();
  start.setOrigin(btVector3(0, floor_top - floor_depth, 0));
  add_body(0.0f, *floor_shape_, start);
}

// Layers of side × side lattice points, filled bottom up; each box moved and tilted a little at
// random.
void FallingBoxesScene::add_boxes(int box_count, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> offset(-jitter, jitter), unit(-1.0f, 1.0f),
      tilt(0.0f, most_tilt);
  const int side = std::max(1, int(std::ceil(std::sqrt(float(box_count) / layers_wanted))));
  const float corner = -0.5f * lattice_step * float(side - 1);
  for (int i = 0; i < box_count; ++i) {
    const int layer = i / (side * side), row = i / side % side, column = i % side;
    btTransform start;
    start.setIdentity();
    start.setOrigin(btVector3(corner + lattice_step * float(column) + offset(random),
                              first_height + lattice_step * float(layer) + offset(random),
                              corner + lattice_step * float(row) + offset(random)));
    btVector3 axis(unit(random), unit(random), unit(random));
    if (axis.length2() < 1e-6f) axis = btVector3(0, 1, 0);
    start.setRotation(btQuaternion(axis.normalized(), tilt(random)));
    add_body(1.0f, *box_shape_, start);
  }
}

void FallingBoxesScene::add_body(float mass, btCollisionShape& shape, const btTransform& start) {
  btVector3 inertia(0, 0, 0);
  if (mass > 0.0f) shape.calculateLocalInertia(mass, inertia);
  btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, &shape, inertia);
  info.m_startWorldTransform = start;
  info.m_friction = friction;
  info.m_angularDamping = angular_damping;
  bodies_.push_back(std::make_unique<btRigidBody>(info));
  world_->addRigidBody(bodies_.back().get());
}

PileOutcome FallingBoxesScene::outcome() const {
  PileOutcome outcome;
  outcome.top = -std::numeric_limits<float>::infinity();
  double height_sum = 0;
  for (std::size_t i = 1; i < bodies_.size(); ++i) {  // bodies_[0] is the floor
    const btRigidBody& body = *bodies_[i];
    const btTransform& transform = body.getWorldTransform();
    const bool asleep = body.getActivationState() == ISLAND_SLEEPING;
    ++outcome.boxes;
    outcome.asleep += asleep;
    outcome.resting += asleep || body.getLinearVelocity().length() < rest_speed;
    outcome.below_floor += lowest_corner(transform, box_half) < lowest_allowed;
    outcome.top = std::max(outcome.top, transform.getOrigin().y());
    height_sum += double(transform.getOrigin().y());
  }
  if (outcome.boxes > 0) outcome.mean_height = float(height_sum / outcome.boxes);
  return outcome;
}

}  // namespace trisect::bullet
