// GraphGenerator: random, well-defined CnC graphs with the MCPL module of
// their steps, for differential testing of the coordination side (`mclc
// verify GRAPH.cnc`: the reference interpreter of graphs against the runtime).
//
// Needs nothing but a seed; the same seed gives the same graph everywhere
// (difftest::Random).
//
// Guarantees, for every seed, a graph that `mclc check` accepts and whose
// reference run succeeds:
// - every item a prescribed step instance gets is put, by the environment or
//   by exactly one step instance (each collection has one producer, whose
//   put tag function is injective over the producer's tags): no instance
//   waits, no item is put twice, the graph is acyclic;
// - every step writes every element of the items it puts (or updates an item
//   in place, which starts as a copy of the item it got);
// - every item a step gets is read by its kernel (mclc check wants that);
// - values stay finite and ints small (additions only; reals scaled by
//   constants of at most 1, squared only where the environment put them,
//   |x| <= 1), and reals decide a comparison only where every engine holds
//   the same bits (items the environment puts), so that a tolerance covers
//   every engine's rounding.
// What the graphs cover: one- and two-component tags; get tag functions
// with offsets, negated, doubled, halved (C's division), swapped and
// constant components; a tag collection prescribing several steps, put in
// two overlapping pieces; collections with several environment targets; the
// environment getting some of the items it puts; items of every element
// type, of extents [1], [n] and [n, m]; steps that get one collection at two
// tags, put two items, or update an item in place (`[x = a : k] -> (s : k)
// -> [x = b : k]`, all of it or its first elements, under a condition now
// and then); tag components and graph constants as kernel arguments.
#pragma once

#include <cstdint>
#include <string>

namespace difftest {

struct GeneratedGraph {
    std::string graph;   // graph.cnc, which imports `steps`
    std::string module;  // steps.mcl: module steps, one perfect kernel a step
};

GeneratedGraph generateGraph(std::uint64_t seed);

}  // namespace difftest
