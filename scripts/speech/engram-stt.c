/* Engram's speech recogniser: Moonshine base-en through sherpa-onnx's C API, behind four plain functions that
 * Engram opens with dlopen (so engram runs, and builds, without any of it). scripts/install-speech.sh compiles this
 * file against the c-api.h of the pinned sherpa-onnx-core wheel and installs libengram-stt.so next to
 * libsherpa-onnx-c-api.so, whose RPATH ($ORIGIN) finds libonnxruntime.so there too. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sherpa-onnx/c-api/c-api.h"

typedef struct engram_stt {
  const SherpaOnnxOfflineRecognizer *recognizer;
  char *paths[3];
} engram_stt;

static char *joined(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  if (p) { strcpy(p, dir); strcat(p, "/"); strcat(p, name); }
  return p;
}

/* Loads the model in DIR (encoder_model.ort, decoder_model_merged.ort, tokens.txt) on THREADS threads; NULL if it
 * cannot (sherpa-onnx prints why on stderr). */
engram_stt *engram_stt_load(const char *dir, int threads) {
  engram_stt *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->paths[0] = joined(dir, "encoder_model.ort");
  s->paths[1] = joined(dir, "decoder_model_merged.ort");
  s->paths[2] = joined(dir, "tokens.txt");
  SherpaOnnxOfflineRecognizerConfig c;
  memset(&c, 0, sizeof c);
  c.feat_config.sample_rate = 16000;
  c.feat_config.feature_dim = 80;
  c.model_config.moonshine.encoder = s->paths[0];
  c.model_config.moonshine.merged_decoder = s->paths[1];
  c.model_config.tokens = s->paths[2];
  c.model_config.num_threads = threads > 0 ? threads : 1;
  c.model_config.provider = "cpu";
  c.decoding_method = "greedy_search";
  s->recognizer = SherpaOnnxCreateOfflineRecognizer(&c);
  if (!s->recognizer) {
    for (int i = 0; i < 3; i++) free(s->paths[i]);
    free(s);
    return NULL;
  }
  return s;
}

/* Recognises N samples (mono, -1...1) at RATE Hz. *TEXT gets the words (free with engram_stt_free_text);
 * *CONFIDENCE the geometric mean of the tokens' probabilities, or -1 when the model gives none. 0 on success. */
int engram_stt_transcribe(engram_stt *s, const float *samples, int n, int rate, char **text, float *confidence) {
  *text = NULL;
  *confidence = -1;
  const SherpaOnnxOfflineStream *stream = SherpaOnnxCreateOfflineStream(s->recognizer);
  if (!stream) return -1;
  SherpaOnnxAcceptWaveformOffline(stream, rate, samples, n);
  SherpaOnnxDecodeOfflineStream(s->recognizer, stream);
  const SherpaOnnxOfflineRecognizerResult *r = SherpaOnnxGetOfflineStreamResult(stream);
  int status = -1;
  if (r) {
    *text = strdup(r->text ? r->text : "");
    if (r->ys_log_probs && r->count > 0) {
      double sum = 0;
      for (int i = 0; i < r->count; i++) sum += r->ys_log_probs[i];
      *confidence = (float)exp(sum / r->count);
    }
    status = *text ? 0 : -1;
    SherpaOnnxDestroyOfflineRecognizerResult(r);
  }
  SherpaOnnxDestroyOfflineStream(stream);
  return status;
}

void engram_stt_free_text(char *text) { free(text); }

void engram_stt_unload(engram_stt *s) {
  if (!s) return;
  SherpaOnnxDestroyOfflineRecognizer(s->recognizer);
  for (int i = 0; i < 3; i++) free(s->paths[i]);
  free(s);
}
