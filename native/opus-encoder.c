/*
 * A Node-API addon around the system's libopus encoder (Debian's libopus0), built by
 * scripts/build-opus-addon.sh into build/opus-encoder.node and preferred by daemon/audio/encoder.ts.
 *
 * Why not only @evan/opus: its native build writes every packet into one static buffer shared by all
 * threads of the process, so encoding has to hold a process-wide lock (daemon/audio/encoder-lock.ts).
 * With two audio workers that lock serialises all encoding, and a worker preempted while holding it
 * stalls the other one too. Here every packet is written into the calling thread's own stack buffer
 * and copied into a new ArrayBuffer, so threads encode at the same time without any lock.
 *
 * The interface is deliberately small:
 *   create(bitrateBps, complexity) -> encoder (48 kHz stereo, application AUDIO, signal MUSIC)
 *   encode(encoder, Int16Array of 1920 interleaved samples) -> Uint8Array packet
 *   destroy(encoder)  (also done when the encoder is collected)
 * An encoder belongs to the thread that made it, as every Node-API value does.
 */
#include <node_api.h>
#include <opus/opus.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SAMPLE_RATE_HZ 48000
#define CHANNELS 2
#define SAMPLES_PER_CHANNEL 960
/* libopus's advice for the largest packet a frame can need (a 20 ms frame at 510 kbps is ~1.3 KB). */
#define MAX_PACKET_BYTES 4000

typedef struct {
  OpusEncoder *encoder;
} Encoder;

static napi_value throw_error(napi_env env, const char *message) {
  napi_throw_error(env, NULL, message);
  return NULL;
}

static void destroy_encoder(Encoder *state) {
  if (state->encoder) {
    opus_encoder_destroy(state->encoder);
    state->encoder = NULL;
  }
}

static void finalize_encoder(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  destroy_encoder((Encoder *)data);
  free(data);
}

static Encoder *encoder_arg(napi_env env, napi_value value) {
  Encoder *state = NULL;
  if (napi_get_value_external(env, value, (void **)&state) != napi_ok || !state) return NULL;
  return state;
}

static napi_value create(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value args[2];
  int32_t bitrate = 0, complexity = 0;
  if (napi_get_cb_info(env, info, &argc, args, NULL, NULL) != napi_ok || argc < 2 ||
      napi_get_value_int32(env, args[0], &bitrate) != napi_ok ||
      napi_get_value_int32(env, args[1], &complexity) != napi_ok)
    return throw_error(env, "create(bitrateBps, complexity) takes two integers");

  int error = OPUS_OK;
  OpusEncoder *encoder = opus_encoder_create(SAMPLE_RATE_HZ, CHANNELS, OPUS_APPLICATION_AUDIO, &error);
  if (error != OPUS_OK || !encoder) return throw_error(env, opus_strerror(error));
  if (opus_encoder_ctl(encoder, OPUS_SET_BITRATE(bitrate)) != OPUS_OK ||
      opus_encoder_ctl(encoder, OPUS_SET_SIGNAL(OPUS_SIGNAL_MUSIC)) != OPUS_OK ||
      opus_encoder_ctl(encoder, OPUS_SET_COMPLEXITY(complexity)) != OPUS_OK) {
    opus_encoder_destroy(encoder);
    return throw_error(env, "libopus refused the bitrate or the complexity");
  }

  Encoder *state = malloc(sizeof *state);
  if (!state) {
    opus_encoder_destroy(encoder);
    return throw_error(env, "out of memory");
  }
  state->encoder = encoder;
  napi_value external;
  if (napi_create_external(env, state, finalize_encoder, NULL, &external) != napi_ok) {
    finalize_encoder(env, state, NULL);
    return throw_error(env, "could not wrap the encoder");
  }
  return external;
}

static napi_value encode(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value args[2];
  if (napi_get_cb_info(env, info, &argc, args, NULL, NULL) != napi_ok || argc < 2)
    return throw_error(env, "encode(encoder, pcm) takes two arguments");
  Encoder *state = encoder_arg(env, args[0]);
  if (!state || !state->encoder) return throw_error(env, "not a live encoder");

  napi_typedarray_type type;
  size_t length = 0;
  void *samples = NULL;
  if (napi_get_typedarray_info(env, args[1], &type, &length, &samples, NULL, NULL) != napi_ok ||
      type != napi_int16_array || length != (size_t)SAMPLES_PER_CHANNEL * CHANNELS)
    return throw_error(env, "pcm must be an Int16Array of 1920 interleaved stereo samples");

  unsigned char packet[MAX_PACKET_BYTES];
  opus_int32 bytes = opus_encode(state->encoder, (const opus_int16 *)samples, SAMPLES_PER_CHANNEL,
                                 packet, MAX_PACKET_BYTES);
  if (bytes < 0) return throw_error(env, opus_strerror(bytes));

  void *copy = NULL;
  napi_value buffer, array;
  if (napi_create_arraybuffer(env, (size_t)bytes, &copy, &buffer) != napi_ok)
    return throw_error(env, "could not allocate the packet");
  memcpy(copy, packet, (size_t)bytes);
  if (napi_create_typedarray(env, napi_uint8_array, (size_t)bytes, buffer, 0, &array) != napi_ok)
    return throw_error(env, "could not wrap the packet");
  return array;
}

static napi_value destroy(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value args[1];
  if (napi_get_cb_info(env, info, &argc, args, NULL, NULL) != napi_ok || argc < 1)
    return throw_error(env, "destroy(encoder) takes one argument");
  Encoder *state = encoder_arg(env, args[0]);
  if (!state) return throw_error(env, "not an encoder");
  destroy_encoder(state);
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor functions[] = {
      {"create", NULL, create, NULL, NULL, NULL, napi_default, NULL},
      {"encode", NULL, encode, NULL, NULL, NULL, napi_default, NULL},
      {"destroy", NULL, destroy, NULL, NULL, NULL, napi_default, NULL},
  };
  if (napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions) != napi_ok)
    return NULL;
  return exports;
}
