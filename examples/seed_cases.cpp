// Prints the seed cases of trisect's exact predicates with their answers: an AABB–plane test
// and an AABB–triangle test, each against a handful of boxes. Exits non-zero if an answer
// differs from the expected one, so that it also runs as a test.
#include <trisect/trisect.hpp>

#include <cstdio>

namespace {

const char* yes_no(bool value) { return value ? "true" : "false"; }

void print_vec(const trisect::Vec3& v) {
  std::printf("(%g, %g, %g)", double(v.x), double(v.y), double(v.z));
}

}  // namespace

int main() {
  int wrong = 0;
  const trisect::Plane plane{{0.0f, 1.0f, 0.5f}, 0.0f};
  std::printf("Plane n = (0, 1, 0.5), d = 0 against boxes from corners:\n");
  struct CornerCase {
    trisect::Vec3 a, b;
    bool expected;
  };
  const CornerCase corner_cases[] = {{{-2, -2, -2}, {-1, -1, -1}, false},
                                     {{2, 1, 2}, {4, 3, 4}, false},
                                     {{1, 0, 1}, {0, -1, 0}, true},
                                     {{5, 5, 5}, {-5, -5, -5}, true}};
  for (const CornerCase& c : corner_cases) {
    const bool answer = trisect::intersects(trisect::Aabb::from_corners(c.a, c.b), plane);
    wrong += answer != c.expected;
    std::printf("  ");
    print_vec(c.a);
    std::printf(" / ");
    print_vec(c.b);
    std::printf(" -> %s%s\n", yes_no(answer), answer == c.expected ? "" : "  (WRONG)");
  }

  const trisect::Triangle triangle{{-1, 5, 0}, {2, 2, -3}, {5, 5, 0}};
  std::printf("Triangle (-1, 5, 0), (2, 2, -3), (5, 5, 0) against boxes centre / extents:\n");
  struct CenterCase {
    trisect::Vec3 center, extents;
    bool expected;
  };
  const CenterCase center_cases[] = {
      {{2, 4, -1}, {0.5f, 0.5f, 0.5f}, true}, {{-1, 5, 0}, {0.5f, 0.5f, 0.5f}, true},
      {{0, 0, 0}, {5, 7, 5}, true},           {{2, 3, -3}, {3, 0.5f, 2}, true},
      {{2, 2, 2}, {1, 1, 1}, false},          {{-2, -2, -2}, {1, 1, 1}, false}};
  for (const CenterCase& c : center_cases) {
    const auto box = trisect::Aabb::from_center_extents(c.center, c.extents);
    const bool answer = trisect::intersects(triangle, box);
    wrong += answer != c.expected;
    std::printf("  ");
    print_vec(c.center);
    std::printf(" / ");
    print_vec(c.extents);
    std::printf(" -> %s%s\n", yes_no(answer), answer == c.expected ? "" : "  (WRONG)");
  }
  std::printf("%s\n",
              wrong == 0 ? "All seed cases answered as expected." : "SOME ANSWERS ARE WRONG");
  return wrong == 0 ? 0 : 1;
}
