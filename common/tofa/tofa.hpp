// Everything in one include for tools and tests.
#pragma once
#include "error.hpp"
#include "generators.hpp"
#include "faults.hpp"
#include "graph.hpp"
#include "mapper.hpp"
#include "metrics.hpp"
#include "topology.hpp"
