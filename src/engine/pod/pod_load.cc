// Engine::load_host*: a pod's picked hosts opened one after the other (open_host_bundle) and
// appended into one store (append_host), whose pyramid is then built and installed as a load's
// end does. The trace shown stays until the pod's store is complete, and stays when no host
// opened.
#include <memory>
#include <new>

#include "engine/engine.h"
#include "engine/pod/host_merge.h"
#include "engine/pod/host_open.h"

namespace strata {

void Engine::load_hosts_begin(std::string_view name) {
  load_begin(name, 0);
  importer_.reset();  // no stream to feed: the hosts' stores are appended
  preview_importer_.reset();
  preview_store_.reset();
  loading_->files.clear();  // the hosts' own files replace the stream's placeholder
  loading_hosts_ = true;
  hosts_loaded_ = 0;
  host_errors_.clear();
}

void Engine::load_host_fail(std::string_view name, std::string_view why) {
  last_error_ = std::string(name) + ": " + std::string(why);
  host_errors_.push_back(last_error_);
}

bool Engine::load_host(std::string_view name, ByteReader* reader) {
  if (!loading_hosts_ || !loading_) {
    last_error_ = "load_host outside load_hosts_begin / load_hosts_end";
    return false;
  }
  std::string error;
  TraceStore host;
  try {
    if (!open_host_bundle(reader, &host, &error)) {
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
  if (hosts_loaded_ == 0) {
    std::string why = "no host of the pod opened";
    for (const std::string& e : host_errors_) why += "; " + e;
    load_fail(why);
    return false;
  }
  std::unique_ptr<TraceStore> store = std::move(loading_);
  store->errors.insert(store->errors.begin(), host_errors_.begin(), host_errors_.end());
  Pyramid pyramid;
  try {
    pyramid = build_pyramid(*store);
  } catch (const std::bad_alloc&) {
    load_fail("out of memory while building the zoom levels");
    return false;
  }
  for (const SourceFile& f : store->files) loaded_bytes_ += f.bytes;
  install(std::move(store), std::move(pyramid));
  last_error_.clear();
  session_errors_.clear();
  loading_name_.clear();
  return true;
}

}  // namespace strata
