#pragma once
// The messages of a cineflow.stream/1 network stream (stream_receiver.hpp has the layout), read
// without a socket: what the first part says, and whether a frame's byte part fits. Everything a
// sender's bytes decide goes through here, so it is checked once and fuzzed
// (tests/fuzz/fuzz_stream_message.cpp).

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace cineflow::acquire {

struct StreamMessage {
  enum class Kind {
    Nothing,    // no message within the timeout
    Header,     // `meta` is the header
    Frame,      // `meta` is the frame's JSON; its bytes are in the payload buffer
    End,        // the sender said it finished
    Malformed,  // skipped whole; `problem` says why
    Truncated,  // a frame whose bytes are not the stream's frame size: `meta` is its JSON (its
                // sequence number counts), `problem` the sizes; its bytes are not delivered
  };
  Kind kind = Kind::Nothing;
  nlohmann::json meta;
  std::string problem;
  // Which of the receiver's connections the message came on (a socket's descriptor; -1 when
  // unknown): a second sender connects its own, while one sender's messages come in order on one.
  int connection = -1;
};

// Classifies a message from its first part (`first`) and whether more parts follow it (`more`):
// Header or End (one part each), Frame (the caller then takes the byte part), or Malformed with
// the reason: not a JSON object, no "type", an unknown type, a frame without a non-negative
// integer "sequence" or without its byte part, a header or end with more parts. Never throws.
StreamMessage parseStreamMessage(std::string_view first, bool more);

// Checks a frame's byte part of `bytes` against the stream's frames of `expected` bytes, with
// `moreAfter` saying whether yet more parts follow: "" when it fits, else the reason it is
// malformed ("a frame of 10 bytes; the stream's frames have 12").
std::string checkFramePart(std::size_t bytes, std::size_t expected, bool moreAfter);

}  // namespace cineflow::acquire
