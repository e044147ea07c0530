#pragma once
// Reads an MP4 file back with FFmpeg's libraries (as a video player does): the video stream's
// size, frame count, duration, and its first frame as an RGB32 picture. Header-only, for the tests
// of the video export.

#include <QImage>
#include <QString>
#include <memory>
#include <string>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

namespace cineflow::test {

struct DecodedVideo {
  QString error;  // empty when the file decoded
  QString codec;  // "h264"
  int width = 0, height = 0, frames = 0;
  double seconds = 0;  // the stream's duration
  QImage first;        // RGB32
};

inline DecodedVideo decodeMp4(const std::string& path) {
  DecodedVideo video;
  AVFormatContext* format = nullptr;
  if (avformat_open_input(&format, path.c_str(), nullptr, nullptr) < 0) {
    video.error = QStringLiteral("cannot open");
    return video;
  }
  const auto closeFormat = std::unique_ptr<AVFormatContext*, void (*)(AVFormatContext**)>(
      &format, [](AVFormatContext** f) { avformat_close_input(f); });
  if (avformat_find_stream_info(format, nullptr) < 0) {
    video.error = QStringLiteral("no stream info");
    return video;
  }
  const int index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  if (index < 0) {
    video.error = QStringLiteral("no video stream");
    return video;
  }
  const AVStream* stream = format->streams[index];
  const AVCodec* decoder = avcodec_find_decoder(stream->codecpar->codec_id);
  AVCodecContext* codec = avcodec_alloc_context3(decoder);
  const auto freeCodec = std::unique_ptr<AVCodecContext*, void (*)(AVCodecContext**)>(
      &codec, [](AVCodecContext** c) { avcodec_free_context(c); });
  avcodec_parameters_to_context(codec, stream->codecpar);
  if (decoder == nullptr || avcodec_open2(codec, decoder, nullptr) < 0) {
    video.error = QStringLiteral("no decoder");
    return video;
  }
  video.codec = QString::fromLatin1(decoder->name);
  video.width = codec->width;
  video.height = codec->height;
  video.seconds = stream->duration * av_q2d(stream->time_base);
  AVPacket* packet = av_packet_alloc();
  AVFrame* frame = av_frame_alloc();
  const auto keep = [&](AVFrame* decoded) {
    if (video.frames++ > 0) {
      return;
    }
    // swscale's vector code may write past the end of a line whose width is not a multiple of
    // its vectors: convert into lines of a multiple of 64 pixels with a spare row, then crop.
    QImage padded((decoded->width + 63) / 64 * 64, decoded->height + 1, QImage::Format_RGB32);
    SwsContext* scale = sws_getContext(
        decoded->width, decoded->height, static_cast<AVPixelFormat>(decoded->format),
        decoded->width, decoded->height, AV_PIX_FMT_BGRA, SWS_BICUBIC, nullptr, nullptr, nullptr);
    uint8_t* out[1] = {padded.bits()};
    const int stride[1] = {static_cast<int>(padded.bytesPerLine())};
    sws_scale(scale, decoded->data, decoded->linesize, 0, decoded->height, out, stride);
    sws_freeContext(scale);
    video.first = padded.copy(0, 0, decoded->width, decoded->height);
  };
  const auto drain = [&] {
    while (avcodec_receive_frame(codec, frame) == 0) {
      keep(frame);
    }
  };
  while (av_read_frame(format, packet) >= 0) {
    if (packet->stream_index == index) {
      avcodec_send_packet(codec, packet);
      drain();
    }
    av_packet_unref(packet);
  }
  avcodec_send_packet(codec, nullptr);
  drain();
  av_frame_free(&frame);
  av_packet_free(&packet);
  return video;
}

// The mean absolute difference of the RGB channels over `a`'s size (which `b` must cover).
inline double meanAbsoluteDifference(const QImage& a, const QImage& b) {
  double sum = 0;
  for (int y = 0; y < a.height(); ++y) {
    for (int x = 0; x < a.width(); ++x) {
      const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
      sum += std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) +
             std::abs(qBlue(p) - qBlue(q));
    }
  }
  return sum / (3.0 * a.width() * a.height());
}

}  // namespace cineflow::test
