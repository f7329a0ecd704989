// What every C export file of the engine module shares: the one engine the worker drives (a
// pod's hosts load into it, a lazy bundle's tiles are fed to it, the graph viewer, compare and
// Runs read its current trace) and the holder of the text an export returns.
#pragma once
#include <string>

#include "engine/engine.h"

namespace strata::wasm {

// Created on first use and never freed: the worker lives as long as the module.
inline Engine& engine() {
  static Engine* e = new Engine();
  return *e;
}

// Keeps `s` for the caller and returns its characters: valid until the next keep() of any
// export. The worker copies each answer out (UTF8ToString) before its next call.
inline const char* keep(std::string s) {
  static std::string* held = new std::string();
  *held = std::move(s);
  return held->c_str();
}

}  // namespace strata::wasm
