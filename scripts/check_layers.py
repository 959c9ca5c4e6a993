#!/usr/bin/env python3
"""Checks that every project include follows the layer rules of docs/design.md, section 1.

Each file under include/trisect/, src/ and python/src/ belongs to the layer of its folder
(include/trisect/<folder>/ and src/<folder>/ are the same layer). Every quoted include, and
every <trisect/...> include, is resolved to the file it names the way the build's include
paths do, and the included file's layer must be the including file's own or one the rules
below allow. Public headers (include/) and the Python module may not include private headers
(src/). Exit status 0 when every include follows the rules, 1 (with one line per broken rule,
file:line first) otherwise.

Usage: scripts/check_layers.py [repository root]   (default: the parent of this script's folder)
"""

import pathlib
import re
import sys

# Which layers each layer may include besides its own. Keep in step with docs/design.md
# ("Layers"). `base` is include/trisect/error.hpp and include/trisect/detail/ (support that
# every layer may use), `umbrella` is include/trisect/trisect.hpp.
LIBRARY = ["base", "math", "mesh", "geometry", "bvh", "slice", "overlap", "nearest", "broadphase"]
MAY_INCLUDE = {
    "base": [],
    "math": ["base"],
    "mesh": ["base", "math", "geometry"],
    "geometry": ["base", "math"],
    "bvh": ["base", "math", "mesh", "geometry"],
    "broadphase": ["base", "math", "geometry"],
    "slice": ["base", "math", "mesh", "geometry", "bvh"],
    "overlap": ["base", "math", "mesh", "geometry", "bvh"],
    "nearest": ["base", "math", "mesh", "geometry", "bvh"],
    "io": ["base", "math", "mesh", "bvh"],
    "umbrella": LIBRARY + ["io"],
    "embree_peer": LIBRARY,
    "cli": LIBRARY + ["io", "umbrella", "embree_peer"],
    "python": LIBRARY + ["io", "umbrella"],
}

# Folders searched for a quoted include after the including file's own folder, per layer (the
# include paths CMakeLists.txt gives each target); <trisect/...> is looked up in include/ only.
SEARCH_PATHS = {
    "cli": ["include", "src/cli", "src/embree_peer", "src"],
    "python": ["include"],
    "io": ["include"],
    "embree_peer": ["include", "src/embree_peer"],
}
LIBRARY_SEARCH_PATHS = ["include", "src"]

SCANNED = ["include", "src", "python/src"]
SUFFIXES = {".hpp", ".cpp", ".h"}
INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<(trisect/[^>]+)>)')


def layer_of(root, path):
    """The layer of `path` (absolute), or None for a file outside the scanned folders."""
    parts = path.relative_to(root).parts
    if parts[:2] == ("python", "src"):
        return "python"
    if parts[:2] == ("include", "trisect"):
        rest = parts[2:]
        if rest == ("trisect.hpp",):
            return "umbrella"
        if rest == ("error.hpp",) or rest[0] == "detail":
            return "base"
        return rest[0] if len(rest) > 1 else None
    if parts[0] == "src" and len(parts) > 2:
        return parts[1]
    return None


def resolve(root, source, layer, quoted, angled):
    """The file an include names, or None when no folder on the include path has it."""
    if angled:
        candidates = [root / "include" / angled]
    else:
        folders = SEARCH_PATHS.get(layer, LIBRARY_SEARCH_PATHS)
        candidates = [source.parent / quoted] + [root / folder / quoted for folder in folders]
    for candidate in candidates:
        if candidate.is_file():
            return candidate.resolve()
    return None


def check_file(root, source):
    """The broken rules of one file, as lines to print."""
    layer = layer_of(root, source)
    if layer not in MAY_INCLUDE:
        return [f"{source.relative_to(root)}: in no layer (add its folder to check_layers.py)"]
    public = source.relative_to(root).parts[0] == "include"
    problems = []
    text = source.read_text(encoding="utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        match = INCLUDE.match(line)
        if not match:
            continue
        quoted, angled = match.groups()
        named = quoted or angled
        where = f"{source.relative_to(root)}:{number}"
        target = resolve(root, source, layer, quoted, angled)
        if target is None:
            problems.append(f'{where}: "{named}" names no file on the include path')
            continue
        relative = target.relative_to(root)
        target_layer = layer_of(root, target)
        if target_layer is None:
            problems.append(f'{where}: "{named}" ({relative}) lies in no layer')
            continue
        if relative.parts[0] == "src" and (public or layer == "python"):
            kind = "a public header" if public else "the Python module"
            problems.append(f'{where}: {kind} includes the private header {relative}')
        if target_layer != layer and target_layer not in MAY_INCLUDE[layer]:
            allowed = ", ".join(MAY_INCLUDE[layer]) or "nothing of trisect"
            problems.append(f'{where}: {layer} may not include {target_layer} ("{named}"); '
                            f"{layer} may include {allowed}")
    return problems


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent / "..")
    root = root.resolve()
    sources = sorted(path.resolve() for folder in SCANNED for path in (root / folder).rglob("*")
                     if path.is_file() and path.suffix in SUFFIXES)
    if not sources:
        print(f"check_layers: no sources under {root}", file=sys.stderr)
        return 1
    problems = [problem for source in sources for problem in check_file(root, source)]
    for problem in problems:
        print(problem)
    if problems:
        print(f"check_layers: {len(problems)} include(s) break the layer rules of docs/design.md",
              file=sys.stderr)
        return 1
    print(f"check_layers: {len(sources)} files, every include follows the layer rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
