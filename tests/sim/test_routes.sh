#!/usr/bin/env bash
# SimGrid's routes equal the library's R(u,v) for every ordered pair of node
# (tofa-sim routes): 4x4x4 and 8x8x8 tori through SimGrid's TorusZone, and a
# listed-routes platform for a mesh and a torus; on a direct platform every
# pair's route is its own one link. Prints "N passed, N failed".
set -u
. "$(dirname "$0")/lib.sh"

# routes TOPOLOGY ROUTING PAIRS: exit 0, every pair compared, no mismatch.
routes() {
  "$sim" routes --topology "$1" --routing "$2" >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
  grep -q ": $3 ordered pairs, 0 mismatches$" "$work/out" || { cat "$work/out"; return 1; }
}

check "torus 4x4x4, SimGrid's TorusZone" routes torus:4x4x4 zone 4032
check "torus 8x8x8, SimGrid's TorusZone" routes torus:8x8x8 zone 261632
check "torus 2x3x4 (rings of 2 and odd), TorusZone" routes torus:2x3x4 zone 552
check "torus 4x4x4, listed routes" routes torus:4x4x4 explicit 4032
check "mesh 4x3x2, listed routes" routes mesh:4x3x2 explicit 552
check "torus 4x4x4, a link between every two nodes (direct)" routes torus:4x4x4 direct 4032

# The comparison finds a wrong route: n0 -> n2 of a listed-routes ring of 4
# made to go the other way round (n0 n3 n2).
"$sim" platform --topology torus:4 --routing explicit --link-sharing split-duplex -o "$work/ring.xml"
wrong='<link_ctn id="l0_3"/><link_ctn id="l3_2"/>'
sed -i "s|\(<route src=\"n0\" dst=\"n2\" symmetrical=\"NO\">\).*</route>|\1$wrong</route>|" \
  "$work/ring.xml"
"$sim" routes --topology torus:4 --routing explicit --platform "$work/ring.xml" >"$work/out" 2>&1
check "a wrong route fails the comparison" test $? -eq 1
check "the wrong route is reported" grep -q "^mismatch n0 -> n2 " "$work/out"
check "only that route differs" grep -q ": 12 ordered pairs, 1 mismatches$" "$work/out"

"$sim" routes --topology mesh:4x4 --routing zone >"$work/out" 2>&1
check "a mesh cannot use SimGrid's TorusZone" grep -q "TorusZone wraps every dimension" "$work/out"

summary
