// Everything in one include for tools and tests.
#pragma once
#include "allocators.hpp"
#include "energy.hpp"
#include "error.hpp"
#include "generators.hpp"
#include "faults.hpp"
#include "graph.hpp"
#include "mapper.hpp"
#include "metrics.hpp"
#include "mims.hpp"
#include "rubik.hpp"
#include "topology.hpp"
