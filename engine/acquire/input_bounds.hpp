#pragma once
// Bounds on what Cineflow allocates from sizes that outside bytes state: a recording's shape, a
// network stream's header, a plugin's description, a MATLAB variable's dimensions. Every such
// size is checked here before anything is allocated, against the bytes the input really holds
// and against the memory one frame may take, so that a 40-byte file claiming 10^12 samples is
// refused at once, naming the field, instead of asking the system for terabytes.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

namespace cineflow::acquire {

// The product of `factors`, or nothing when it does not fit in 64 bits.
std::optional<std::uint64_t> checkedProduct(std::initializer_list<std::uint64_t> factors);

// The most bytes one frame may have: a run holds about a dozen frames at once (the host ring's
// slots, the device slots in flight, a recorder's queue), so a frame may take at most 1/16 of the
// machine's physical memory, and never more than 512 MiB (the largest frame any supported probe
// or OCT system makes is under 200 MiB).
std::uint64_t frameBytesLimit();

// Throws SourceError "<who>: <field>: ..." when `bytes` (nothing: more than 64 bits hold) exceeds
// frameBytesLimit(); `field` names what stated it ("/rf shape [1][3][192][1e12]").
void checkFrameBytes(std::optional<std::uint64_t> bytes, const std::string& who,
                     const std::string& field);

// Throws SourceError "<who>: <field>: states N bytes, but only M follow" when a size an input
// states (nothing: more than 64 bits) exceeds what the input holds.
void checkStatedBytes(std::optional<std::uint64_t> stated, std::uint64_t available,
                      const std::string& who, const std::string& field);

}  // namespace cineflow::acquire
