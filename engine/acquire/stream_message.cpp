#include "acquire/stream_message.hpp"

#include <utility>

namespace cineflow::acquire {

StreamMessage parseStreamMessage(std::string_view first, bool more) {
  StreamMessage message;
  const auto malformed = [&message](std::string why) {
    message.kind = StreamMessage::Kind::Malformed;
    message.meta = nullptr;
    message.problem = std::move(why);
    return message;
  };
  message.meta = nlohmann::json::parse(first, nullptr, false);
  if (message.meta.is_discarded() || !message.meta.is_object()) {
    return malformed("its first part is not a JSON object");
  }
  const auto type = message.meta.find("type");
  if (type == message.meta.end() || !type->is_string()) {
    return malformed("its JSON has no \"type\"");
  }
  const std::string typeName = type->get<std::string>();
  if (typeName == "header" || typeName == "end") {
    if (more) {
      return malformed("a " + typeName + " message has one part, this has more");
    }
    message.kind = typeName == "header" ? StreamMessage::Kind::Header : StreamMessage::Kind::End;
    return message;
  }
  if (typeName != "frame") {
    return malformed("unknown type \"" + typeName + "\"");
  }
  const auto sequence = message.meta.find("sequence");
  if (sequence == message.meta.end() || !sequence->is_number_unsigned()) {
    return malformed("a frame without a non-negative integer \"sequence\"");
  }
  if (!more) {
    return malformed("a frame message without its bytes (one part, two expected)");
  }
  message.kind = StreamMessage::Kind::Frame;
  return message;
}

std::string checkFramePart(std::size_t bytes, std::size_t expected, bool moreAfter) {
  if (bytes != expected) {
    return "a frame of " + std::to_string(bytes) + " bytes; the stream's frames have " +
           std::to_string(expected);
  }
  if (moreAfter) {
    return "a frame message of more than two parts";
  }
  return {};
}

}  // namespace cineflow::acquire
