// Links against an installed trisect and asks one question whose answer needs closed-set
// semantics: a triangle whose vertex lies exactly on a box corner touches the box.
#include <trisect/trisect.hpp>

#include <cstdio>

int main() {
  const trisect::Aabb box = trisect::Aabb::from_corners({0, 0, 0}, {1, 1, 1});
  const trisect::Triangle triangle{{1, 1, 1}, {2, 1, 3}, {3, 2, 1}};
  if (!trisect::intersects(triangle, box)) {
    std::puts("consumer: wrong answer: a triangle touching a box corner was reported apart");
    return 1;
  }
  std::puts("consumer: ok");
  return 0;
}
