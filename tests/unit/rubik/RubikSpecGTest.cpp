// The Rubik spec format: the seed's listings run as written, loops and
// subscripts reach any level, and every error names file:line:column.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "rubik_test_util.hpp"

namespace {

using rubik_test::error_text;
using rubik_test::where;
using tofa::rubik::Spec;

Spec run(const std::string& text) {
  std::istringstream in(text);
  return tofa::rubik::parse_spec(in, "t.rubik");
}

TEST(RubikSpec, SeedListingOfFigure6) {
  const Spec spec = run(
      "# Create app partition tree of 27-task planes\n"
      "app = box([9,3,8])\n"
      "app.tile([9,3,1])\n"
      "\n"
      "# Create network partition tree of 27-processor cubes\n"
      "network = box([6,6,6])\n"
      "network.tile([3,3,3])\n"
      "\n"
      "network.map(app) # Map task planes into cubes\n");
  EXPECT_EQ(spec.names, (std::vector<std::string>{"app", "network"}));
  EXPECT_EQ(spec.output, "network");  // the target of the last map
  EXPECT_EQ(where(spec.output_tree(), 215), (std::vector<int>{5, 5, 5}));
  EXPECT_EQ(where(spec.output_tree(), 1), (std::vector<int>{0, 0, 3}));
}

TEST(RubikSpec, SeedListingOfFigure8) {
  const Spec spec = run(
      "Z, Y, X = 0, 1, 2 # Assign names to dimensions\n"
      "net = box([4,4,4]) # Create a box\n"
      "net.tilt(Z, X, 1) # Tilt Z (XY) planes along X\n"
      "net.tilt(X, Y, 1) # Tilt X (YZ) planes along Y\n");
  EXPECT_EQ(spec.output, "net");  // no map: the last box
  EXPECT_EQ(where(spec.output_tree(), 63), (std::vector<int>{3, 1, 2}));
}

TEST(RubikSpec, QboxListingWithCutAndWriteMapFile) {
  const Spec spec = run(
      "app = box([256, 8])\n"
      "app.tile([256, 1])\n"
      "torus = box([8, 8, 8, 4])\n"
      "torus.cut([2, 1, 4, 1], [mod, div, div, div])\n"
      "torus.map(app)\n"
      "torus.write_map_file(f)\n");
  EXPECT_EQ(spec.output, "torus");
  // Column 0 of the app (ranks 0, 8, 16, ...; element p is rank 8p) fills
  // torus child (0,0,0,0), a 4x8x2x4 box of even x and z in 0..1. Element 4
  // (rank 32) is its local cell (0,0,1,0) -> x = 0, y = 0, z = 1, t = 0;
  // element 32 (rank 256) is local (0,4,0,0) -> y = 4. Column 1 (rank 1)
  // goes to child (0,0,1,0): z starts at 2.
  EXPECT_EQ(where(spec.output_tree(), 0), (std::vector<int>{0, 0, 0, 0}));
  EXPECT_EQ(where(spec.output_tree(), 32), (std::vector<int>{0, 0, 1, 0}));
  EXPECT_EQ(where(spec.output_tree(), 256), (std::vector<int>{0, 4, 0, 0}));
  EXPECT_EQ(where(spec.output_tree(), 1), (std::vector<int>{0, 0, 2, 0}));
}

TEST(RubikSpec, LoopsSubscriptsAndWildcards) {
  // Figure 4 with a loop, then Figure 9-style permutations on children.
  const Spec spec = run(
      "X, Y, Z = 0, 1, 2\n"
      "app = box([4, 4, 4])\n"
      "app.div([1, 1, 2])\n"
      "for child in app: child.div([2, 2, 1])\n"
      "app[1][0, 1, 0].zorder()\n"
      "app[0][*].tilt(X, Y, 1)\n"
      "app[1][3].zigzag(Z, X, -1)\n");
  const auto& tree = spec.output_tree();
  EXPECT_EQ(tree.leaves().size(), 8u);
  EXPECT_EQ(tree.root().child(1).child(0).size(), 8);
}

TEST(RubikSpec, Errors) {
  EXPECT_EQ(error_text([] { run("net = box([4,4,4])\nnet.tilt(Z, X, 1)\n"); }),
            "t.rubik:2:10: unknown name 'Z' (define it first, e.g. 'X, Y, Z = 0, 1, 2')");
  EXPECT_EQ(error_text([] { run("net = box([4,4,4])\nnet.div([3,2,2])\n"); }),
            "t.rubik:2:5: div: dimension 0 of size 4 is not divisible by 3");
  EXPECT_EQ(error_text([] { run("net = box([4,4,4])\nnet.spin()\n"); }),
            "t.rubik:2:5: unknown operation 'spin': expected div, tile, mod, cut, map, tilt, "
            "zigzag, zorder or write_map_file");
  EXPECT_EQ(error_text([] { run("net = box([4,4,4)\n"); }),
            "t.rubik:1:17: expected ']' to close the list, found ')'");
  EXPECT_EQ(error_text([] { run("net.div([2])\n"); }), "t.rubik:1:1: unknown box 'net'");
  EXPECT_EQ(error_text([] { run("# nothing\n"); }),
            "t.rubik:1:0: the spec defines no box (expected e.g. 'net = box([4, 4, 4])')");
  EXPECT_EQ(error_text([] { run("a = box([4])\na.div([2])\na[0].map(a)\n"); }),
            "t.rubik:3:6: map applies to a whole tree, not to a part of one");
  EXPECT_EQ(error_text([] { run("a = box([4])\na[0].zorder()\n"); }),
            "t.rubik:2:2: subscript on a box that is not divided");
  EXPECT_EQ(error_text([] { run("a = box([4])\na.div([2])\na[2].zorder()\n"); }),
            "t.rubik:3:2: child index 2 in dimension 0 is outside 0..1");
  EXPECT_EQ(error_text([] { run("a = box([4]) extra\n"); }),
            "t.rubik:1:14: unexpected 'extra' after the statement");
  EXPECT_EQ(error_text([] { run("a = box([4])\nb = box([2,2])\nb.div([2,1])\nb.map(a)\n"); }),
            "t.rubik:4:3: map: the trees are not compatible: 2 leaves here, 1 in the source");
  EXPECT_EQ(error_text([] { run("a = box([4])\nfor c in a: d.zorder()\n"); }),
            "t.rubik:2:10: 'for' needs a divided box, but this one has no children");
  EXPECT_EQ(error_text([] { run("a = box([4])\na.div([2])\nfor c in a: d.zorder()\n"); }),
            "t.rubik:3:13: expected 'c', the loop variable, found 'd'");
  EXPECT_EQ(error_text([] { run("a = box([4])\na.cut([2], [div, tile])\n"); }),
            "t.rubik:2:18: expected div or mod, found 'tile'");
  EXPECT_EQ(error_text([] { run("a = box([4])\n$\n"); }), "t.rubik:2:1: unexpected character '$'");
  EXPECT_EQ(error_text([] { tofa::rubik::read_spec("/nonexistent/x.rubik"); }),
            "cannot read Rubik spec '/nonexistent/x.rubik'");
}

// Found by fuzz/rubik_spec: box([20000,20000]) took 6 GB, and divisions by 1
// copy a box's cells again at every level. Refused before allocating.
TEST(RubikSpec, CellLimits) {
  EXPECT_EQ(error_text([] { run("a = box([20000, 20000])\n"); }),
            "t.rubik:1:5: box: more than 16777216 cells");
  // 99999^4 overflows a 64-bit product: the limit is checked dimension by dimension.
  EXPECT_EQ(error_text([] { run("a = box([99999, 99999, 99999, 99999])\n"); }),
            "t.rubik:1:5: box: more than 16777216 cells");
  EXPECT_EQ(error_text([] { run("a = box([4096, 2048])\na.div([1, 1])\na[0].div([1, 1])\n"); }),
            "t.rubik:3:6: the tree's boxes would hold more than 16777216 cells");
  EXPECT_EQ(error_text([] { run("a = box([4096, 4096])\nb = box([1])\n"); }),
            "t.rubik:2:1: the spec's boxes hold more than 16777216 cells");
}

}  // namespace
