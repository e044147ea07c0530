#pragma once
// Reading recordings for replay (ultrasound/rf_file_source, oct/oct_file_source): what a Cineflow
// HDF5 file says it is, asked cheaply (the root attribute `schema`: "cineflow.rf/1",
// "cineflow.oct/1", "cineflow.volume/1", ..., for the source factory, which picks a reader by it
// before any reader validates the file), opening one, and reading one frame of its samples.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

#include "store/hdf5_handle.hpp"

namespace cineflow::store {

// Opens the recording `path` read-only for replay, without HDF5's file locking (which fails on
// some read-only and network file systems). Throws acquire::SourceError "PATH: problem" for a
// missing file, a folder ("is a directory, not KIND"), a file without HDF5's signature ("not an
// HDF5 file (...)" followed by `notHdf5Hint` when given) or one HDF5 cannot open (damaged or
// truncated). Call it inside an ErrorScope.
H5File openForReplay(const std::filesystem::path& path, const std::string& kind,
                     const std::string& notHdf5Hint = {});

// The root group's string attribute `schema`; "" when `path` is not a readable HDF5 file or its
// root has no such string. Reads only the superblock and the root's attributes; never throws,
// prints nothing.
std::string rootSchema(const std::filesystem::path& path) noexcept;

// Reads frame `index` of `dataset` [frames][d1][d2]... (`frameDims` = d1, d2, ...) into `dst`,
// its values contiguous as `memType`, through `fileSpace` (the dataset's dataspace; its selection
// changes). Returns "" on success, else HDF5's reason (taken right after the failing call: every
// HDF5 call clears the error stack on entry). Call it inside an ErrorScope.
std::string readFrameSlab(hid_t dataset, hid_t fileSpace, std::uint64_t index,
                          std::span<const hsize_t> frameDims, hid_t memType, void* dst);

}  // namespace cineflow::store
