// Engine::load_host*: a pod's picked hosts opened one after the other and installed as one
// trace. Read whole (small pods): each host's bundle into a store (open_host_bundle), appended
// into one store (append_host), installed as every built store is (install_built). Lazy (a pod
// too big to read): each host's header, index and search blob (read_bundle_index) into a
// PodLazy, whose tables are installed as a lazy bundle's are. The trace shown stays until the
// pod's trace is complete, and stays when no host opened.
#include <memory>
#include <new>

#include "core/formats/sqlite/byte_reader.h"
#include "engine/engine.h"
#include "engine/pod/host_merge.h"
#include "engine/pod/host_open.h"
#include "engine/pod/pod_lazy.h"

namespace strata {

void Engine::load_hosts_begin(std::string_view name, bool lazy) {
  load_begin(name, 0);
  importer_.reset();  // no stream to feed: the hosts' stores are appended
  preview_importer_.reset();
  preview_store_.reset();
  loading_->files.clear();  // the hosts' own files replace the stream's placeholder
  loading_hosts_ = true;
  hosts_loaded_ = 0;
  host_errors_.clear();
  pod_lazy_.reset();
  if (lazy) pod_lazy_ = std::make_unique<PodLazy>();
}

void Engine::load_host_fail(std::string_view name, std::string_view why) {
  last_error_ = std::string(name) + ": " + std::string(why);
  host_errors_.push_back(last_error_);
}

bool Engine::load_host(std::string_view name, ByteReader* reader,
                       const SplitTileReader& split_tile) {
  if (!loading_hosts_ || !loading_) {
    last_error_ = "load_host outside load_hosts_begin / load_hosts_end";
    return false;
  }
  std::string error;
  if (pod_lazy_) {
    bundle::Header h;
    bundle::Manifest m;
    bundle::SearchIndex search;
    try {
      if (!read_bundle_index(reader, &h, &m, &search, &error)) {
        load_host_fail(name, error);
        return false;
      }
      // A split bundle's size is its manifest's and its tiles'.
      const uint64_t bytes = reader->size() + (h.flags & bundle::kFlagSplit ? h.tiles_bytes : 0);
      pod_lazy_->add(std::string(name), std::move(m), std::move(search), bytes);
    } catch (const std::bad_alloc&) {
      load_host_fail(name, "out of memory while reading its bundle's index");
      return false;
    }
    ++hosts_loaded_;
    last_error_.clear();
    return true;
  }
  TraceStore host;
  try {
    if (!open_host_bundle(reader, split_tile, &host, &error)) {
      load_host_fail(name, error);
      return false;
    }
  } catch (const std::bad_alloc&) {
    load_host_fail(name, "out of memory while reading its bundle");
    return false;
  }
  try {
    append_host(loading_.get(), host, name);
  } catch (const std::bad_alloc&) {
    // The pod's store is half appended: the whole load fails and the trace shown stays.
    loading_hosts_ = false;
    load_fail(std::string(name) + ": out of memory while adding it to the pod's trace");
    return false;
  }
  ++hosts_loaded_;
  last_error_.clear();
  return true;
}

bool Engine::load_hosts_end() {
  if (!loading_hosts_ || !loading_) return false;
  loading_hosts_ = false;
  std::unique_ptr<PodLazy> lazy = std::move(pod_lazy_);
  if (hosts_loaded_ == 0) {
    std::string why = "no host of the pod opened";
    for (const std::string& e : host_errors_) why += "; " + e;
    load_fail(why);
    return false;
  }
  if (lazy) {
    std::unique_ptr<TraceStore> tables;
    try {
      tables = lazy->finish();
    } catch (const std::bad_alloc&) {
      load_fail("out of memory while reading the hosts' indices");
      return false;
    }
    tables->notes.insert(tables->notes.begin(), kLazyNote);
    tables->errors.insert(tables->errors.begin(), host_errors_.begin(), host_errors_.end());
    const uint64_t bytes = lazy->bundle_bytes();
    loading_.reset();
    loaded_bytes_ = bytes;
    install(std::move(tables), Pyramid{});
    bundle_ = std::move(lazy);
    last_error_.clear();
    session_errors_.clear();
    loading_name_.clear();
    return true;
  }
  std::unique_ptr<TraceStore> store = std::move(loading_);
  store->errors.insert(store->errors.begin(), host_errors_.begin(), host_errors_.end());
  uint64_t bytes = 0;
  for (const SourceFile& f : store->files) bytes += f.bytes;
  return install_built(std::move(store), bytes);
}

}  // namespace strata
