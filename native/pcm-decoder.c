/*
 * pcm-decoder: one track in, raw PCM (s16le) out on stdout. A small stand-in for the ffmpeg command
 * line the daemon runs per playing bot (daemon/audio/decode/ffmpeg-args.ts), taking the same arguments.
 *
 * Why it exists: Debian's ffmpeg links about 215 shared libraries (filters, devices, speech synthesis,
 * SVG, GL…), and the relocations the loader writes into them cost each process about 10 MB of private
 * memory and tens of milliseconds of CPU at every start. A bot only decodes and resamples audio, which
 * needs libavformat, libavcodec, libswresample and libavutil: linked against those alone, a decoder
 * takes about half the memory and starts faster. With one decoder per playing bot, that is what
 * decides how many bots fit on a machine.
 *
 * Arguments, in ffmpeg's order and meaning (anything else is refused, so a new option in ffmpeg-args.ts
 * cannot be silently ignored):
 *   before -i: -f FMT -ar RATE -ac CHANNELS (a raw input's format), -ss SECONDS (seek the input),
 *              -reconnect / -reconnect_streamed / -reconnect_delay_max VALUE (http input options),
 *              -protocol_whitelist LIST / -format_whitelist LIST (what the input may be read with:
 *              the demuxer and every protocol it opens, nested ones included, as in ffmpeg; the
 *              daemon always gives both, so a playlist demuxer cannot fetch what a manifest names),
 *              -threads N (decoder threads), and -hide_banner -nostdin -loglevel LEVEL
 *              -filter_threads N, accepted for compatibility;
 *   -i INPUT   a path, a URL, or pipe:0;
 *   after -i:  -t SECONDS (output length, counted from the seek point), -vn, and the output
 *              -f s16le -ar RATE -ac CHANNELS pipe:1 (the only output this program writes).
 * Errors go to stderr as "INPUT: reason" and the exit status is 1, as ffmpeg does.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <libavutil/opt.h>
#include <libswresample/swresample.h>

struct options {
  const char *input;
  const char *input_format;
  AVDictionary *input_options;
  double seek_seconds;
  double duration_seconds; /* < 0: whole input */
  int threads;
  int out_rate;
  int out_channels;
};

static void usage_error(const char *what, const char *arg) {
  fprintf(stderr, "pcm-decoder: %s%s%s\n", what, arg ? " " : "", arg ? arg : "");
  exit(2);
}

static const char *value_of(int argc, char **argv, int *i) {
  if (*i + 1 >= argc) usage_error("missing value after", argv[*i]);
  return argv[++*i];
}

static double seconds_of(const char *text) {
  char *end = NULL;
  errno = 0;
  double value = strtod(text, &end);
  if (errno || end == text || *end || value < 0 || !isfinite(value)) usage_error("not a time in seconds:", text);
  return value;
}

static int positive_int_of(const char *text) {
  char *end = NULL;
  long value = strtol(text, &end, 10);
  if (end == text || *end || value <= 0 || value > 1000000) usage_error("not a positive number:", text);
  return (int)value;
}

static void parse_arguments(int argc, char **argv, struct options *o) {
  int after_input = 0;
  const char *output = NULL;
  const char *output_format = NULL;
  int in_rate = 0, in_channels = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-hide_banner") || !strcmp(a, "-nostdin") || !strcmp(a, "-vn")) continue;
    if (!strcmp(a, "-loglevel") || !strcmp(a, "-filter_threads")) {
      value_of(argc, argv, &i);
    } else if (!strcmp(a, "-threads")) {
      o->threads = positive_int_of(value_of(argc, argv, &i));
    } else if (!strcmp(a, "-f")) {
      const char *format = value_of(argc, argv, &i);
      if (after_input) output_format = format;
      else o->input_format = format;
    } else if (!strcmp(a, "-ar")) {
      int rate = positive_int_of(value_of(argc, argv, &i));
      if (after_input) o->out_rate = rate;
      else in_rate = rate;
    } else if (!strcmp(a, "-ac")) {
      int channels = positive_int_of(value_of(argc, argv, &i));
      if (after_input) o->out_channels = channels;
      else in_channels = channels;
    } else if (!strcmp(a, "-ss") && !after_input) {
      o->seek_seconds = seconds_of(value_of(argc, argv, &i));
    } else if (!strcmp(a, "-t") && after_input) {
      o->duration_seconds = seconds_of(value_of(argc, argv, &i));
    } else if ((!strcmp(a, "-reconnect") || !strcmp(a, "-reconnect_streamed") ||
                !strcmp(a, "-reconnect_delay_max") || !strcmp(a, "-protocol_whitelist") ||
                !strcmp(a, "-format_whitelist")) &&
               !after_input) {
      av_dict_set(&o->input_options, a + 1, value_of(argc, argv, &i), 0);
    } else if (!strcmp(a, "-i") && !after_input) {
      o->input = value_of(argc, argv, &i);
      after_input = 1;
    } else if (after_input && a[0] != '-' && !output) {
      output = a;
    } else {
      usage_error("unsupported argument", a);
    }
  }
  if (!o->input) usage_error("no input (-i)", NULL);
  if (!output || strcmp(output, "pipe:1")) usage_error("the output must be pipe:1", output);
  if (!output_format || strcmp(output_format, "s16le")) usage_error("the output format must be s16le", output_format);
  if (!o->out_rate || !o->out_channels) usage_error("the output needs -ar and -ac", NULL);
  if (in_rate) {
    char text[32];
    snprintf(text, sizeof text, "%d", in_rate);
    av_dict_set(&o->input_options, "sample_rate", text, 0);
  }
  if (in_channels) av_dict_set(&o->input_options, "ch_layout", in_channels == 1 ? "mono" : "stereo", 0);
}

static int fail(const char *input, const char *what, int code) {
  char reason[AV_ERROR_MAX_STRING_SIZE] = {0};
  av_strerror(code, reason, sizeof reason);
  fprintf(stderr, "%s: %s%s%s\n", input, what ? what : "", what ? ": " : "", reason);
  return 1;
}

/* Writes interleaved samples to stdout, leaving out the first *skip of them and stopping at *left. */
static int write_samples(const uint8_t *data, int samples, int channels, int64_t *skip, int64_t *left) {
  const int frame_bytes = 2 * channels;
  if (*skip > 0) {
    int skipped = samples < *skip ? samples : (int)*skip;
    *skip -= skipped;
    data += (size_t)skipped * frame_bytes;
    samples -= skipped;
  }
  if (*left >= 0 && samples > *left) samples = (int)*left;
  if (samples <= 0) return 0;
  if (fwrite(data, frame_bytes, (size_t)samples, stdout) != (size_t)samples) return -1;
  if (*left >= 0) *left -= samples;
  return 0;
}

int main(int argc, char **argv) {
  struct options o = {.duration_seconds = -1, .threads = 1};
  parse_arguments(argc, argv, &o);
  av_log_set_level(AV_LOG_ERROR);
  /* stdio gives a pipe 4 KB writes, two or three per decoded frame, each waking the reader (a worker
   * thread of the daemon); 32 KB at a time, as ffmpeg's own output buffer, wakes it a tenth as often. */
  static char out_buffer_storage[32 * 1024];
  setvbuf(stdout, out_buffer_storage, _IOFBF, sizeof out_buffer_storage);

  const char *url = strcmp(o.input, "pipe:0") ? o.input : "pipe:0";
  const AVInputFormat *format = NULL;
  if (o.input_format && !(format = av_find_input_format(o.input_format)))
    usage_error("unknown input format", o.input_format);

  AVFormatContext *in = NULL;
  int ret = avformat_open_input(&in, url, format, &o.input_options);
  av_dict_free(&o.input_options);
  if (ret < 0) return fail(o.input, NULL, ret);
  if ((ret = avformat_find_stream_info(in, NULL)) < 0) return fail(o.input, "could not read the streams", ret);

  const AVCodec *codec = NULL;
  int stream_index = av_find_best_stream(in, AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0);
  if (stream_index < 0) return fail(o.input, "no audio stream", stream_index);
  AVStream *stream = in->streams[stream_index];
  for (unsigned i = 0; i < in->nb_streams; i++)
    if ((int)i != stream_index) in->streams[i]->discard = AVDISCARD_ALL;

  AVCodecContext *decoder = avcodec_alloc_context3(codec);
  if (!decoder) return fail(o.input, NULL, AVERROR(ENOMEM));
  avcodec_parameters_to_context(decoder, stream->codecpar);
  decoder->thread_count = o.threads;
  decoder->pkt_timebase = stream->time_base;
  if ((ret = avcodec_open2(decoder, codec, NULL)) < 0) return fail(o.input, "could not open the decoder", ret);

  /* As ffmpeg's -ss: seek to the key point before the position, then drop what decodes before it. */
  int64_t origin = in->start_time != AV_NOPTS_VALUE ? in->start_time : 0;
  if (o.seek_seconds > 0) {
    int64_t target = origin + (int64_t)llround(o.seek_seconds * AV_TIME_BASE);
    /* A pipe cannot seek: everything before the position is then decoded and dropped. */
    avformat_seek_file(in, -1, INT64_MIN, target, target, 0);
  }

  AVChannelLayout out_layout;
  av_channel_layout_default(&out_layout, o.out_channels);
  SwrContext *resampler = NULL;
  AVPacket *packet = av_packet_alloc();
  AVFrame *frame = av_frame_alloc();
  uint8_t *out_buffer = NULL;
  int out_capacity = 0;
  int64_t skip = -1; /* output samples to drop, known at the first decoded frame */
  int64_t left = o.duration_seconds < 0 ? -1 : (int64_t)llround(o.duration_seconds * o.out_rate);
  int draining = 0;
  int status = 0;

  while (left != 0) {
    if (!draining) {
      ret = av_read_frame(in, packet);
      if (ret == AVERROR(EAGAIN)) continue;
      if (ret < 0) {
        /* As ffmpeg: a read error mid-track is said, and what was decoded until then still plays. */
        if (ret != AVERROR_EOF) fail(o.input, "error while reading", ret);
        draining = 1;
        avcodec_send_packet(decoder, NULL);
      } else {
        if (packet->stream_index == stream_index) {
          ret = avcodec_send_packet(decoder, packet);
          /* A damaged packet is skipped, as ffmpeg does; the next one decodes on. */
          if (ret < 0 && ret != AVERROR(EAGAIN)) av_log(NULL, AV_LOG_WARNING, "a packet did not decode\n");
        }
        av_packet_unref(packet);
      }
    }
    for (;;) {
      ret = avcodec_receive_frame(decoder, frame);
      if (ret == AVERROR(EAGAIN)) break;
      if (ret == AVERROR_EOF) goto flush;
      if (ret < 0) {
        status = fail(o.input, "could not decode", ret);
        goto done;
      }
      if (!resampler) {
        ret = swr_alloc_set_opts2(&resampler, &out_layout, AV_SAMPLE_FMT_S16, o.out_rate, &frame->ch_layout,
                                  frame->format, frame->sample_rate, 0, NULL);
        if (ret < 0 || (ret = swr_init(resampler)) < 0) {
          status = fail(o.input, "could not resample", ret);
          goto done;
        }
      }
      if (skip < 0) {
        skip = 0;
        int64_t pts = frame->best_effort_timestamp;
        if (o.seek_seconds > 0 && pts != AV_NOPTS_VALUE) {
          double at = (pts - av_rescale_q(origin, AV_TIME_BASE_Q, stream->time_base)) * av_q2d(stream->time_base);
          if (at < o.seek_seconds) skip = llround((o.seek_seconds - at) * o.out_rate);
        }
      }
      int room = swr_get_out_samples(resampler, frame->nb_samples);
      if (room > out_capacity) {
        av_freep(&out_buffer);
        if (av_samples_alloc(&out_buffer, NULL, o.out_channels, room, AV_SAMPLE_FMT_S16, 0) < 0) {
          status = fail(o.input, NULL, AVERROR(ENOMEM));
          goto done;
        }
        out_capacity = room;
      }
      int made = swr_convert(resampler, &out_buffer, room, (const uint8_t **)frame->extended_data, frame->nb_samples);
      av_frame_unref(frame);
      if (made < 0) {
        status = fail(o.input, "could not resample", made);
        goto done;
      }
      if (write_samples(out_buffer, made, o.out_channels, &skip, &left) < 0) goto done; /* reader gone */
      if (left == 0) goto done;
    }
  }
flush:
  /* What the resampler still holds: the last few milliseconds of the track. */
  while (resampler && left != 0 && out_capacity > 0) {
    int made = swr_convert(resampler, &out_buffer, out_capacity, NULL, 0);
    if (made <= 0 || write_samples(out_buffer, made, o.out_channels, &skip, &left) < 0) break;
  }
done:
  fflush(stdout);
  av_freep(&out_buffer);
  av_frame_free(&frame);
  av_packet_free(&packet);
  swr_free(&resampler);
  avcodec_free_context(&decoder);
  avformat_close_input(&in);
  return status;
}
