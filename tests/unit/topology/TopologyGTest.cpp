// Topology: coordinates, dimension-order routing, neighbours, link ids, names,
// snake order and the route registry. Expected routes are worked out by hand
// in the comments; ids are x + X*(y + Y*z).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "topology/topology.hpp"

namespace {

using tofa::Link;
using tofa::Route;
using tofa::Topology;

std::vector<Link> links(const Topology& t, int from, int to) { return t.route(from, to).links; }

/// Shortest hop count computed independently of the library.
int expected_hops(const Topology& t, int from, int to) {
  const std::vector<int> a = t.coords(from);
  const std::vector<int> b = t.coords(to);
  int hops = 0;
  for (int d = 0; d < t.dimension_count(); ++d) {
    const int straight = std::abs(a[d] - b[d]);
    hops += t.wrap()[d] ? std::min(straight, t.dims()[d] - straight) : straight;
  }
  return hops;
}

/// Checks that route(from, to) is a connected walk from `from` to `to` that
/// handles dimensions in order, never turns around inside a dimension, and is
/// as short as possible.
void check_route(const Topology& t, int from, int to) {
  SCOPED_TRACE("route " + std::to_string(from) + " -> " + std::to_string(to) + " in " +
               t.describe());
  const Route r = t.route(from, to);
  ASSERT_EQ(r.hops(), expected_hops(t, from, to));
  ASSERT_EQ(t.hop_distance(from, to), r.hops());
  ASSERT_EQ(t.hop_distance(to, from), r.hops());
  int at = from;
  for (size_t i = 0; i < r.links.size(); ++i) {
    const Link& link = r.links[i];
    ASSERT_EQ(link.from, at);
    std::vector<int> expected = t.coords(at);
    const int size = t.dims()[link.dimension];
    expected[link.dimension] = (expected[link.dimension] + link.direction + size) % size;
    ASSERT_EQ(link.to, t.node_at(expected));
    if (i > 0) {
      ASSERT_GE(link.dimension, r.links[i - 1].dimension);
      if (link.dimension == r.links[i - 1].dimension) {
        ASSERT_EQ(link.direction, r.links[i - 1].direction);
      }
    }
    at = link.to;
  }
  ASSERT_EQ(at, to);
  ASSERT_EQ(r.intermediate_nodes.size(), r.links.empty() ? 0u : r.links.size() - 1);
  for (size_t i = 0; i < r.intermediate_nodes.size(); ++i)
    ASSERT_EQ(r.intermediate_nodes[i], r.links[i].to);
}

TEST(TopologyTest, CoordinatesFirstDimensionFastest) {
  const Topology t = Topology::from_spec("torus:4x3x2");
  EXPECT_EQ(t.node_count(), 24);
  // id 17 = 1 + 4*(1 + 3*1): x=1, y=1, z=1
  EXPECT_EQ(t.coords(17), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(t.node_at({3, 2, 1}), 3 + 4 * (2 + 3 * 1));
  for (int id = 0; id < t.node_count(); ++id) EXPECT_EQ(t.node_at(t.coords(id)), id);
  EXPECT_THROW(t.node_at({4, 0, 0}), tofa::Error);
  EXPECT_THROW(t.node_at({0, 0}), tofa::Error);
  EXPECT_THROW(t.coords(24), tofa::Error);
}

TEST(TopologyTest, RouteWrapsAroundTheShortWay) {
  const Topology t = Topology::from_spec("torus:4x4x4");
  // x 3 -> 0: one hop + through the wrap link.
  EXPECT_EQ(links(t, 3, 0), (std::vector<Link>{{3, 0, 0, +1}}));
  // x 0 -> 3: one hop - through the wrap link.
  EXPECT_EQ(links(t, 0, 3), (std::vector<Link>{{0, 3, 0, -1}}));
  // x 1 -> 0 and 0 -> 1: plain neighbours.
  EXPECT_EQ(links(t, 1, 0), (std::vector<Link>{{1, 0, 0, -1}}));
  EXPECT_EQ(links(t, 0, 1), (std::vector<Link>{{0, 1, 0, +1}}));
  EXPECT_TRUE(t.route(5, 5).links.empty());
  EXPECT_TRUE(t.route(5, 5).intermediate_nodes.empty());
}

TEST(TopologyTest, TieAtHalfRingGoesUpExceptFromTheMiddle) {
  const Topology t = Topology::from_spec("torus:4x4x4");
  // L = 4, distance 2 either way. From x=0 to x=2: + (0,1,2).
  EXPECT_EQ(links(t, 0, 2), (std::vector<Link>{{0, 1, 0, +1}, {1, 2, 0, +1}}));
  // From x=2 = L/2 to x=0: - (2,1,0).
  EXPECT_EQ(links(t, 2, 0), (std::vector<Link>{{2, 1, 0, -1}, {1, 0, 0, -1}}));
  // From x=1 to x=3: + (1,2,3).
  EXPECT_EQ(links(t, 1, 3), (std::vector<Link>{{1, 2, 0, +1}, {2, 3, 0, +1}}));
  // From x=3 to x=1: + through the wrap (3,0,1).
  EXPECT_EQ(links(t, 3, 1), (std::vector<Link>{{3, 0, 0, +1}, {0, 1, 0, +1}}));
  // The same rule in y (stride 4): y 0 -> 2 goes +, y 2 -> 0 goes -.
  EXPECT_EQ(links(t, 0, 8), (std::vector<Link>{{0, 4, 1, +1}, {4, 8, 1, +1}}));
  EXPECT_EQ(links(t, 8, 0), (std::vector<Link>{{8, 4, 1, -1}, {4, 0, 1, -1}}));
}

TEST(TopologyTest, DimensionsAreFixedInOrder) {
  const Topology t = Topology::from_spec("torus:4x4x4");
  // (0,0,0) -> (1,2,3): x 0->1 (+); y 0->2 (tie, +) ; z 0->3 (- through wrap).
  // Nodes: 0 -> (1,0,0)=1 -> (1,1,0)=5 -> (1,2,0)=9 -> (1,2,3)=9+48=57.
  const int to = t.node_at({1, 2, 3});
  ASSERT_EQ(to, 57);
  const Route r = t.route(0, to);
  EXPECT_EQ(r.links, (std::vector<Link>{{0, 1, 0, +1}, {1, 5, 1, +1}, {5, 9, 1, +1},
                                        {9, 57, 2, -1}}));
  EXPECT_EQ(r.intermediate_nodes, (std::vector<int>{1, 5, 9}));
  EXPECT_EQ(r.hops(), 4);

  // (2,3,2)=46 -> (0,1,0)=4: x 2->0 from L/2 goes - (45, 44); y 3->1 goes +
  // through the wrap ((0,0,2)=32, (0,1,2)=36); z 2->0 from L/2 goes - (20, 4).
  const Route back = t.route(46, 4);
  EXPECT_EQ(back.links, (std::vector<Link>{{46, 45, 0, -1}, {45, 44, 0, -1}, {44, 32, 1, +1},
                                           {32, 36, 1, +1}, {36, 20, 2, -1}, {20, 4, 2, -1}}));
  EXPECT_EQ(back.intermediate_nodes, (std::vector<int>{45, 44, 32, 36, 20}));
}

TEST(TopologyTest, MeshRoutesGoStraight) {
  const Topology t = Topology::from_spec("mesh:4x4");
  // (3,0)=3 -> (0,3)=12: x down 3,2,1,0 then y up 0,4,8,12; no wrap link.
  const Route r = t.route(3, 12);
  EXPECT_EQ(r.links, (std::vector<Link>{{3, 2, 0, -1}, {2, 1, 0, -1}, {1, 0, 0, -1},
                                        {0, 4, 1, +1}, {4, 8, 1, +1}, {8, 12, 1, +1}}));
  EXPECT_EQ(r.intermediate_nodes, (std::vector<int>{2, 1, 0, 4, 8}));
  // x 0 -> 3 on a mesh: 3 hops, where the torus takes 1.
  EXPECT_EQ(t.hop_distance(0, 3), 3);
}

TEST(TopologyTest, SmallRings) {
  // Ring of 2: the single link, in the direction the rule picks.
  const Topology two = Topology::from_spec("torus:2");
  EXPECT_EQ(links(two, 0, 1), (std::vector<Link>{{0, 1, 0, +1}}));
  EXPECT_EQ(links(two, 1, 0), (std::vector<Link>{{1, 0, 0, -1}}));
  // A dimension of size 1 adds nothing: (0,0) -> (0,3) in 1x4 is y 0->3, - via wrap.
  const Topology thin = Topology::from_spec("torus:1x4");
  EXPECT_EQ(links(thin, 0, 3), (std::vector<Link>{{0, 3, 1, -1}}));
  // 16x16x16: (0,0,0) -> (15,15,15) is one wrap hop (-) per dimension.
  const Topology big = Topology::from_spec("torus:16x16x16");
  EXPECT_EQ(links(big, 0, 4095),
            (std::vector<Link>{{0, 15, 0, -1}, {15, 255, 1, -1}, {255, 4095, 2, -1}}));
  EXPECT_EQ(big.hop_distance(0, 4095), 3);
  // (8,8,8) -> (0,0,0): ties from L/2, so - in each dimension, 8 hops each.
  const int middle = big.node_at({8, 8, 8});
  EXPECT_EQ(big.hop_distance(middle, 0), 24);
  EXPECT_EQ(big.route(middle, 0).links.front(), (Link{middle, middle - 1, 0, -1}));
}

TEST(TopologyTest, RingRuleIsShortestAndNeverTurnsAroundForEverySize) {
  // The SimGrid predicate is re-evaluated at each hop; for every ring size
  // and every pair it must give a straight walk of the shortest length.
  for (int size = 1; size <= 12; ++size) {
    const Topology ring({size}, {true});
    for (int from = 0; from < size; ++from)
      for (int to = 0; to < size; ++to) check_route(ring, from, to);
  }
}

TEST(TopologyTest, EveryRouteIsAShortestDimensionOrderedWalk) {
  for (const Topology& t : {Topology::from_spec("torus:4x4x4"), Topology::from_spec("mesh:3x4"),
                            Topology({5, 4, 3}, {true, false, true}),
                            Topology::from_spec("torus:2x3x1x2")}) {
    for (int from = 0; from < t.node_count(); ++from)
      for (int to = 0; to < t.node_count(); ++to) {
        check_route(t, from, to);
        if (HasFatalFailure()) return;
      }
  }
}

TEST(TopologyTest, RouteRejectsBadIds) {
  const Topology t = Topology::from_spec("torus:2x2");
  EXPECT_THROW(t.route(0, 4), tofa::Error);
  EXPECT_THROW(t.route(-1, 0), tofa::Error);
  EXPECT_THROW(t.hop_distance(0, 4), tofa::Error);
}

TEST(TopologyTest, NeighboursInDimensionOrderWithoutDuplicates) {
  const Topology torus = Topology::from_spec("torus:4x4x4");
  // Node 0: x+ 1, x- 3, y+ 4, y- 12, z+ 16, z- 48.
  EXPECT_EQ(torus.neighbours(0), (std::vector<int>{1, 3, 4, 12, 16, 48}));

  const Topology mesh = Topology::from_spec("mesh:3x3");
  EXPECT_EQ(mesh.neighbours(0), (std::vector<int>{1, 3}));        // corner (0,0)
  EXPECT_EQ(mesh.neighbours(4), (std::vector<int>{5, 3, 7, 1}));  // centre (1,1)
  EXPECT_EQ(mesh.neighbours(5), (std::vector<int>{4, 8, 2}));     // border (2,1)

  // 2x3 torus: in x, + and - both reach node 1; in y, (0,1)=2 and (0,2)=4.
  const Topology pair = Topology::from_spec("torus:2x3");
  EXPECT_EQ(pair.neighbours(0), (std::vector<int>{1, 2, 4}));
  // A size-1 dimension has no neighbours: 1x3 node 0 -> (0,1)=1, (0,2)=2.
  EXPECT_EQ(Topology::from_spec("torus:1x3").neighbours(0), (std::vector<int>{1, 2}));
  EXPECT_TRUE(Topology::from_spec("torus:1").neighbours(0).empty());
}

TEST(TopologyTest, LinkIdsAreDenseAndUnique) {
  const Topology t = Topology::from_spec("torus:4x4x4");
  // (from * D + dimension) * 2 + (0 for +, 1 for -), D = 3.
  EXPECT_EQ(t.link_id({5, 6, 0, +1}), 30);
  EXPECT_EQ(t.link_id({5, 4, 0, -1}), 31);
  EXPECT_EQ(t.link_id({5, 9, 1, +1}), 32);
  EXPECT_EQ(t.link_id({63, 47, 2, -1}), t.link_slot_count() - 1);

  std::set<int> ids;
  for (int node = 0; node < t.node_count(); ++node)
    for (int d = 0; d < 3; ++d)
      for (int direction : {+1, -1}) {
        std::vector<int> c = t.coords(node);
        c[d] = (c[d] + direction + 4) % 4;
        const int id = t.link_id({node, t.node_at(c), d, direction});
        EXPECT_GE(id, 0);
        EXPECT_LT(id, t.link_slot_count());
        ids.insert(id);
      }
  EXPECT_EQ(static_cast<int>(ids.size()), t.link_slot_count());
  EXPECT_THROW(t.link_id({64, 0, 0, +1}), tofa::Error);
  EXPECT_THROW(t.link_id({0, 1, 3, +1}), tofa::Error);
}

TEST(TopologyTest, FromSpec) {
  const Topology torus = Topology::from_spec("torus:8x8x8");
  EXPECT_EQ(torus.dims(), (std::vector<int>{8, 8, 8}));
  EXPECT_TRUE(torus.is_full_torus());
  EXPECT_EQ(torus.cores_per_node(), 1);
  EXPECT_EQ(torus.describe(), "torus 8x8x8, 1 core(s) per node");

  const Topology mesh = Topology::from_spec("mesh:4x4");
  EXPECT_EQ(mesh.wrap(), (std::vector<bool>{false, false}));
  EXPECT_FALSE(mesh.is_full_torus());
  EXPECT_EQ(mesh.describe(), "mesh 4x4, 1 core(s) per node");

  const Topology cores = Topology::from_spec("torus:4x4x4:cores=2");
  EXPECT_EQ(cores.cores_per_node(), 2);
  EXPECT_EQ(cores.describe(), "torus 4x4x4, 2 core(s) per node");
  EXPECT_EQ(cores.link_slot_count(), 64 * 2 * 3);

  EXPECT_EQ(Topology({2, 3}, {true, false}).describe(),
            "torus/mesh 2x3 (wrap yes,no), 1 core(s) per node");
}

TEST(TopologyTest, FromSpecErrors) {
  for (const std::string spec :
       {"torus", "torus:", "ring:4x4", "torus:4x0", "torus:4xx4", "torus:-4", "torus:4x4:",
        "torus:4x4:cores=0", "torus:4x4:cpus=2", "mesh:4x4:cores=2:x", "Torus:4", "torus::4"}) {
    try {
      Topology::from_spec(spec);
      ADD_FAILURE() << "accepted " << spec;
    } catch (const tofa::Error& e) {
      EXPECT_EQ(std::string(e.what()),
                "bad topology spec '" + spec +
                    "': expected 'torus:AxBxC' or 'mesh:AxB' with optional ':cores=N'");
    }
  }
}

TEST(TopologyTest, ConstructorErrors) {
  EXPECT_THROW(Topology({}, {}), tofa::Error);
  EXPECT_THROW(Topology({4, 0}, {true, true}), tofa::Error);
  EXPECT_THROW(Topology({4, 4}, {true}), tofa::Error);
  EXPECT_THROW(Topology({4}, {true}, 0), tofa::Error);
  EXPECT_THROW(Topology({100000, 100000}, {true, true}), tofa::Error);  // too many nodes
}

TEST(TopologyTest, NodeLimitIsCheckedBeforeNamesAreBuilt) {
  try {
    Topology({1025, 1024}, {true, true});
    FAIL() << "a topology of 1049600 nodes was built";
  } catch (const tofa::Error& e) {
    EXPECT_EQ(std::string(e.what()), "topology 1025x1024 has more than 1048576 nodes");
  }
  EXPECT_EQ(Topology::from_spec("mesh:1024x4").node_count(), 4096);
}

TEST(TopologyTest, NodeNames) {
  Topology t = Topology::from_spec("torus:2x2");
  EXPECT_EQ(t.node_names(), (std::vector<std::string>{"n0", "n1", "n2", "n3"}));
  EXPECT_EQ(t.node_by_name("n3"), 3);
  EXPECT_EQ(t.node_by_name("n4"), -1);
  t.set_node_names({"d", "c", "b", "a"});
  EXPECT_EQ(t.node_name(0), "d");
  EXPECT_EQ(t.node_by_name("a"), 3);
  EXPECT_EQ(t.node_by_name("n0"), -1);
  EXPECT_THROW(t.set_node_names({"a", "b", "c"}), tofa::Error);
  EXPECT_THROW(t.set_node_names({"a", "b", "c", "a"}), tofa::Error);
  EXPECT_THROW(t.set_node_names({"a", "b", "c", ""}), tofa::Error);
  EXPECT_EQ(t.node_name(3), "a");  // unchanged by the failed calls
}

TEST(TopologyTest, SnakeOrderSmallCases) {
  // 3x2: row y=0 left to right (0,1,2), row y=1 right to left (5,4,3).
  EXPECT_EQ(tofa::snake_order(Topology::from_spec("mesh:3x2")),
            (std::vector<int>{0, 1, 2, 5, 4, 3}));
  // 2x2x2: plane z=0 is the 2x2 snake 0,1,3,2; plane z=1 walks it backwards
  // (2,3,1,0) shifted by 4.
  EXPECT_EQ(tofa::snake_order(Topology::from_spec("mesh:2x2x2")),
            (std::vector<int>{0, 1, 3, 2, 6, 7, 5, 4}));
}

TEST(TopologyTest, SnakeOrderStepsOneHopOnAnyMesh) {
  for (const std::string spec :
       {"mesh:5", "mesh:3x4", "mesh:4x3", "mesh:3x3x3", "mesh:2x3x4x3", "mesh:4x1x3", "mesh:1x1"}) {
    SCOPED_TRACE(spec);
    const Topology t = Topology::from_spec(spec);
    const std::vector<int> order = tofa::snake_order(t);
    std::vector<int> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < t.node_count(); ++i) ASSERT_EQ(sorted[i], i);  // a permutation
    ASSERT_EQ(order.front(), 0);
    for (size_t i = 1; i < order.size(); ++i)
      ASSERT_EQ(t.hop_distance(order[i - 1], order[i]), 1) << "at step " << i;
  }
}

TEST(RouteRegistryTest, RingOfFiveEveryNodeRelaysItsTwoNeighbours) {
  // Ring of 5: pairs at distance 2 relay through the node between them
  // (k-1 -> k+1 goes +, k+1 -> k-1 goes -, both through k); distance-1 pairs
  // have no intermediate node.
  const tofa::RouteRegistry registry(Topology::from_spec("torus:5"));
  EXPECT_EQ(registry.routes_through(0), (std::vector<std::pair<int, int>>{{1, 4}, {4, 1}}));
  EXPECT_EQ(registry.routes_through(2), (std::vector<std::pair<int, int>>{{1, 3}, {3, 1}}));
  EXPECT_EQ(registry.routes_through(4), (std::vector<std::pair<int, int>>{{0, 3}, {3, 0}}));
}

TEST(RouteRegistryTest, RingOfFourFollowsTheTieBreak) {
  // Ring of 4: 0->2 goes + via 1; 2->0 goes - via 1; 1->3 goes + via 2;
  // 3->1 goes + via 0. Node 3 relays nothing.
  const Topology ring = Topology::from_spec("torus:4");
  const tofa::RouteRegistry all(ring);
  EXPECT_EQ(all.routes_through(0), (std::vector<std::pair<int, int>>{{3, 1}}));
  EXPECT_EQ(all.routes_through(1), (std::vector<std::pair<int, int>>{{0, 2}, {2, 0}}));
  EXPECT_EQ(all.routes_through(2), (std::vector<std::pair<int, int>>{{1, 3}}));
  EXPECT_TRUE(all.routes_through(3).empty());

  // Only routes between the endpoints 3 and 1 (duplicates ignored).
  const tofa::RouteRegistry some(ring, {3, 1, 3});
  EXPECT_EQ(some.routes_through(0), (std::vector<std::pair<int, int>>{{3, 1}}));
  EXPECT_EQ(some.routes_through(2), (std::vector<std::pair<int, int>>{{1, 3}}));
  EXPECT_TRUE(some.routes_through(1).empty());
  EXPECT_THROW(tofa::RouteRegistry(ring, {0, 4}), tofa::Error);
}

}  // namespace
