/*
 * opus-encoder.node: libopus's encoder for the audio workers, as a Node-API addon built against the
 * system's libopus (Debian's libopus-dev). daemon/audio/encode/encoder.ts prefers it to @evan/opus when it is
 * built, for two reasons:
 *
 * - Every encoder has its own state and writes where it is told. @evan/opus's native build writes every
 *   packet into one static buffer shared by all threads of the process, so its encodes take a
 *   process-wide lock (encoder-lock.ts): however many audio workers run, Opus encoding, most of their
 *   work, goes one frame at a time. With this addon each worker encodes on its own core.
 * - `encodeInto` writes the packet straight into the caller's memory (the player's frame ring, shared
 *   with the frame clock's thread): no packet array per frame and no copy.
 *
 * Exports:
 *   create(bitrateBps, complexity) -> encoder   (48 kHz stereo, application AUDIO, signal MUSIC)
 *   encodeInto(encoder, pcm: Int16Array of 1920 samples, out: Uint8Array) -> bytes written
 * An encoder is freed when it is garbage collected. Errors throw with libopus's own message.
 */
#define NAPI_VERSION 8
#include <node_api.h>
#include <opus/opus.h>
#include <stdio.h>

#define SAMPLE_RATE 48000
#define CHANNELS 2
#define FRAME_SAMPLES_PER_CHANNEL 960

#define CHECK(env, call)                                                                       \
  do {                                                                                         \
    if ((call) != napi_ok) {                                                                   \
      napi_throw_error((env), NULL, "opus-encoder: Node-API call failed: " #call);             \
      return NULL;                                                                             \
    }                                                                                          \
  } while (0)

static void free_encoder(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  opus_encoder_destroy((OpusEncoder *)data);
}

static napi_value throw_opus(napi_env env, const char *what, int code) {
  char message[160];
  snprintf(message, sizeof message, "opus-encoder: %s: %s", what, opus_strerror(code));
  napi_throw_error(env, NULL, message);
  return NULL;
}

static napi_value create(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  int32_t bitrate = 0;
  int32_t complexity = 0;
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 2) {
    napi_throw_type_error(env, NULL, "opus-encoder: create(bitrateBps, complexity)");
    return NULL;
  }
  CHECK(env, napi_get_value_int32(env, argv[0], &bitrate));
  CHECK(env, napi_get_value_int32(env, argv[1], &complexity));

  int error = OPUS_OK;
  OpusEncoder *encoder = opus_encoder_create(SAMPLE_RATE, CHANNELS, OPUS_APPLICATION_AUDIO, &error);
  if (error != OPUS_OK) return throw_opus(env, "create", error);
  if ((error = opus_encoder_ctl(encoder, OPUS_SET_BITRATE(bitrate))) != OPUS_OK ||
      (error = opus_encoder_ctl(encoder, OPUS_SET_SIGNAL(OPUS_SIGNAL_MUSIC))) != OPUS_OK ||
      (error = opus_encoder_ctl(encoder, OPUS_SET_COMPLEXITY(complexity))) != OPUS_OK) {
    opus_encoder_destroy(encoder);
    return throw_opus(env, "configure", error);
  }
  napi_value handle;
  if (napi_create_external(env, encoder, free_encoder, NULL, &handle) != napi_ok) {
    opus_encoder_destroy(encoder);
    napi_throw_error(env, NULL, "opus-encoder: could not wrap the encoder");
    return NULL;
  }
  return handle;
}

/* The typed array's memory, checked to be of the wanted type and at least `min_length` elements. */
static void *typed_data(napi_env env, napi_value value, napi_typedarray_type wanted, size_t min_length,
                        size_t *length) {
  bool is_typed = false;
  if (napi_is_typedarray(env, value, &is_typed) != napi_ok || !is_typed) return NULL;
  napi_typedarray_type type;
  void *data = NULL;
  if (napi_get_typedarray_info(env, value, &type, length, &data, NULL, NULL) != napi_ok) return NULL;
  if (type != wanted || *length < min_length) return NULL;
  return data;
}

static napi_value encode_into(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  OpusEncoder *encoder = NULL;
  if (argc < 3 || napi_get_value_external(env, argv[0], (void **)&encoder) != napi_ok || !encoder) {
    napi_throw_type_error(env, NULL, "opus-encoder: encodeInto(encoder, pcm, out)");
    return NULL;
  }
  size_t pcm_length = 0;
  size_t out_length = 0;
  const opus_int16 *pcm =
      typed_data(env, argv[1], napi_int16_array, FRAME_SAMPLES_PER_CHANNEL * CHANNELS, &pcm_length);
  unsigned char *out = typed_data(env, argv[2], napi_uint8_array, 1, &out_length);
  if (!pcm || !out) {
    napi_throw_type_error(env, NULL,
                          "opus-encoder: pcm must be an Int16Array of 1920 samples, out a Uint8Array");
    return NULL;
  }
  opus_int32 bytes =
      opus_encode(encoder, pcm, FRAME_SAMPLES_PER_CHANNEL, out, (opus_int32)out_length);
  if (bytes < 0) return throw_opus(env, "encode", bytes);
  napi_value result;
  CHECK(env, napi_create_int32(env, bytes, &result));
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  if (napi_create_function(env, "create", NAPI_AUTO_LENGTH, create, NULL, &fn) != napi_ok ||
      napi_set_named_property(env, exports, "create", fn) != napi_ok ||
      napi_create_function(env, "encodeInto", NAPI_AUTO_LENGTH, encode_into, NULL, &fn) != napi_ok ||
      napi_set_named_property(env, exports, "encodeInto", fn) != napi_ok)
    return NULL;
  return exports;
}
