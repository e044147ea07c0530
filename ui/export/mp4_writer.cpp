#include "export/mp4_writer.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include <QPainter>

#include "base/durable_rename.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace cineflow::ui {
namespace {

std::string averror(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return text;
}

void check(int code, const std::string& what) {
  if (code < 0) {
    throw std::runtime_error("MP4: " + what + ": " + averror(code));
  }
}

}  // namespace

// One owner for every FFmpeg object of the file; released in reverse order of creation.
struct Mp4Writer::State {
  std::string path, partial;
  double fps = 0;
  int quality = 18;
  AVFormatContext* format = nullptr;
  AVCodecContext* codec = nullptr;
  AVStream* stream = nullptr;
  AVFrame* frame = nullptr;
  AVPacket* packet = nullptr;
  SwsContext* scale = nullptr;
  int width = 0, height = 0;  // the pictures'
  int frames = 0;
  bool headerWritten = false, finished = false;

  ~State() {
    sws_freeContext(scale);
    av_packet_free(&packet);
    av_frame_free(&frame);
    avcodec_free_context(&codec);
    if (format != nullptr) {
      if (format->pb != nullptr) {
        avio_closep(&format->pb);
      }
      avformat_free_context(format);
    }
    if (!partial.empty()) {
      std::remove(partial.c_str());  // left by a failure, or by publishFile's failure
    }
  }

  void open(int pictureWidth, int pictureHeight) {
    width = pictureWidth;
    height = pictureHeight;
    const int evenWidth = (width + 1) & ~1, evenHeight = (height + 1) & ~1;
    check(avformat_alloc_output_context2(&format, nullptr, "mp4", partial.c_str()), "no mp4 muxer");
    const AVCodec* encoder = avcodec_find_encoder_by_name("libx264");
    if (encoder == nullptr) {
      encoder = avcodec_find_encoder(AV_CODEC_ID_H264);
    }
    if (encoder == nullptr) {
      throw std::runtime_error("MP4: this FFmpeg has no H.264 encoder");
    }
    stream = avformat_new_stream(format, nullptr);
    codec = avcodec_alloc_context3(encoder);
    if (stream == nullptr || codec == nullptr) {
      throw std::runtime_error("MP4: out of memory");
    }
    codec->width = evenWidth;
    codec->height = evenHeight;
    codec->pix_fmt = AV_PIX_FMT_YUV420P;
    codec->time_base = AVRational{1, 1000};  // milliseconds
    codec->framerate = av_d2q(fps, 100000);
    codec->gop_size = std::max(1, static_cast<int>(std::lround(fps)));
    if (format->oformat->flags & AVFMT_GLOBALHEADER) {
      codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    }
    av_opt_set(codec->priv_data, "crf", std::to_string(quality).c_str(), 0);
    av_opt_set(codec->priv_data, "preset", "medium", 0);
    check(avcodec_open2(codec, encoder, nullptr), std::string("opening ") + encoder->name);
    check(avcodec_parameters_from_context(stream->codecpar, codec), "stream parameters");
    stream->time_base = codec->time_base;
    stream->avg_frame_rate = codec->framerate;
    check(avio_open(&format->pb, partial.c_str(), AVIO_FLAG_WRITE), "cannot create " + partial);
    check(avformat_write_header(format, nullptr), "writing the header of " + partial);
    headerWritten = true;
    frame = av_frame_alloc();
    packet = av_packet_alloc();
    if (frame == nullptr || packet == nullptr) {
      throw std::runtime_error("MP4: out of memory");
    }
    frame->format = codec->pix_fmt;
    frame->width = evenWidth;
    frame->height = evenHeight;
    check(av_frame_get_buffer(frame, 0), "frame buffer");
    scale = sws_getContext(evenWidth, evenHeight, AV_PIX_FMT_BGRA, evenWidth, evenHeight,
                           AV_PIX_FMT_YUV420P, SWS_BICUBIC, nullptr, nullptr, nullptr);
    if (scale == nullptr) {
      throw std::runtime_error("MP4: no RGB to YUV 4:2:0 conversion");
    }
  }

  // Sends `input` (null: flush) and writes every packet the encoder returns.
  void encode(AVFrame* input) {
    check(avcodec_send_frame(codec, input), "encoding");
    for (;;) {
      const int got = avcodec_receive_packet(codec, packet);
      if (got == AVERROR(EAGAIN) || got == AVERROR_EOF) {
        return;
      }
      check(got, "encoding");
      av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
      packet->stream_index = stream->index;
      check(av_interleaved_write_frame(format, packet), "writing " + partial);
    }
  }
};

Mp4Writer::Mp4Writer(const std::string& path, double framesPerSecond, int quality)
    : state_(std::make_unique<State>()) {
  if (!(framesPerSecond > 0 && framesPerSecond <= 1000)) {
    throw std::runtime_error("MP4: the frame rate must lie in (0, 1000] frames/s");
  }
  state_->path = path;
  state_->partial = path + ".partial";
  state_->fps = framesPerSecond;
  state_->quality = quality;
}

Mp4Writer::~Mp4Writer() = default;

void Mp4Writer::write(const QImage& picture) {
  if (picture.isNull()) {
    throw std::runtime_error("MP4: an empty picture");
  }
  State& s = *state_;
  if (s.codec == nullptr) {
    s.open(picture.width(), picture.height());
  } else if (picture.width() != s.width || picture.height() != s.height) {
    throw std::runtime_error("MP4: every picture must have the first one's size");
  }
  // Even sides: the picture on black, in 32-bit BGRA (QImage::Format_RGB32's memory order), in
  // lines of a multiple of 64 pixels with a spare row below: swscale's vector code may read past
  // the end of a line of another width.
  QImage padded((s.codec->width + 63) / 64 * 64, s.codec->height + 1, QImage::Format_RGB32);
  padded.fill(Qt::black);
  QPainter(&padded).drawImage(0, 0, picture.convertToFormat(QImage::Format_RGB32));
  check(av_frame_make_writable(s.frame), "frame buffer");
  const uint8_t* source[1] = {padded.constBits()};
  const int stride[1] = {static_cast<int>(padded.bytesPerLine())};
  sws_scale(s.scale, source, stride, 0, s.codec->height, s.frame->data, s.frame->linesize);
  s.frame->pts = static_cast<int64_t>(std::llround(s.frames * 1000.0 / s.fps));
  s.encode(s.frame);
  ++s.frames;
}

void Mp4Writer::finish() {
  State& s = *state_;
  if (s.finished) {
    throw std::runtime_error("MP4: finished already");
  }
  if (s.codec == nullptr) {
    throw std::runtime_error("MP4: no frames");
  }
  s.encode(nullptr);
  check(av_write_trailer(s.format), "writing the end of " + s.partial);
  check(avio_closep(&s.format->pb), "closing " + s.partial);
  if (const auto failure = base::publishFile(s.partial, s.path)) {
    throw std::runtime_error("MP4: cannot " + failure->operation + ": " + failure->reason);
  }
  s.finished = true;
}

int Mp4Writer::frames() const {
  return state_->frames;
}

std::string Mp4Writer::encoder() const {
  return state_->codec != nullptr && state_->codec->codec != nullptr ? state_->codec->codec->name
                                                                     : std::string();
}

}  // namespace cineflow::ui
