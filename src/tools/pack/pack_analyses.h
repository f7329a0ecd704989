// The analyses a bundle carries (docs/BUNDLE.md "Analyses"): at pack time the whole store is in
// memory, so every analysis runs there with its default arguments and its table's JSON goes
// into the bundle, for a lazy bundle to answer without its events.
#pragma once

#include "tools/pack/bundle_writer.h"

namespace strata {

class Engine;

namespace bundle {

// The list query's JSON and every analysis' table (one that does not apply: its table saying
// why), into o->analysis_list and o->analyses: the loaded trace's own answers, byte for byte.
void pack_analyses(const Engine& engine, PackOptions* o);

}  // namespace bundle
}  // namespace strata
