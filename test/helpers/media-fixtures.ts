import audioOnlyMp4 from "../fixtures/media/audio-only.mp4?inline";
import cameraTagsMov from "../fixtures/media/camera-tags.mov?inline";
import captionsWebm from "../fixtures/media/captions.webm?inline";
import corruptMp4 from "../fixtures/media/corrupt.mp4?inline";
import deviceTagsMkv from "../fixtures/media/device-tags.mkv?inline";
import germanCaptionsMp4 from "../fixtures/media/german-captions.mp4?inline";
import germanSpeechMp4 from "../fixtures/media/german-speech.mp4?inline";
import minuteMp4 from "../fixtures/media/minute.mp4?inline";
import moovAtEndMov from "../fixtures/media/moov-at-end.mov?inline";
import musicMp4 from "../fixtures/media/music.mp4?inline";
import notAVideoMp4 from "../fixtures/media/not-a-video.mp4?inline";
import phoneTagsMov from "../fixtures/media/phone-tags.mov?inline";
import screenTextMp4 from "../fixtures/media/screen-text.mp4?inline";
import silentMp4 from "../fixtures/media/silent.mp4?inline";
import smokeClipMp4 from "../fixtures/media/smoke-clip.mp4?inline";
import spokenMp4 from "../fixtures/media/spoken.mp4?inline";
import subtitlesMkv from "../fixtures/media/subtitles.mkv?inline";
import talkMp4 from "../fixtures/media/talk.mp4?inline";
import trialAv1Mp4 from "../fixtures/media/trial-av1.mp4?inline";
import trialBrowserWebm from "../fixtures/media/trial-browser.webm?inline";
import trialGermanMp4 from "../fixtures/media/trial-german.mp4?inline";
import trialPhoneHevcMov from "../fixtures/media/trial-phone-hevc.mov?inline";
import voiceNoiseMp4 from "../fixtures/media/voice-noise.mp4?inline";
import voiceSilenceMp4 from "../fixtures/media/voice-silence.mp4?inline";
import voiceSpeechMp4 from "../fixtures/media/voice-speech.mp4?inline";
import voiceToneMp4 from "../fixtures/media/voice-tone.mp4?inline";
import zlibSubtitlesMkv from "../fixtures/media/zlib-subtitles.mkv?inline";
import { dataUrlBytes } from "./data-url";

// Vite inlines these as data URLs at transform time, the one way to get binary fixtures into
// workerd without a filesystem or config-time bindings. `.mkv` needs `assetsInclude` in
// vitest.config.ts; the others are Vite assets already.
const DATA_URLS = {
  "audio-only.mp4": audioOnlyMp4,
  "camera-tags.mov": cameraTagsMov,
  "captions.webm": captionsWebm,
  "corrupt.mp4": corruptMp4,
  "device-tags.mkv": deviceTagsMkv,
  "german-captions.mp4": germanCaptionsMp4,
  "german-speech.mp4": germanSpeechMp4,
  "minute.mp4": minuteMp4,
  "moov-at-end.mov": moovAtEndMov,
  "not-a-video.mp4": notAVideoMp4,
  "phone-tags.mov": phoneTagsMov,
  "screen-text.mp4": screenTextMp4,
  "spoken.mp4": spokenMp4,
  "music.mp4": musicMp4,
  "silent.mp4": silentMp4,
  "smoke-clip.mp4": smokeClipMp4,
  "subtitles.mkv": subtitlesMkv,
  "talk.mp4": talkMp4,
  // The files the simulators know (make-known-fixtures.sh); trial-long.mp4 (500 KB) is left
  // out, so every file importing this helper does not inline it.
  "trial-av1.mp4": trialAv1Mp4,
  "trial-browser.webm": trialBrowserWebm,
  "trial-german.mp4": trialGermanMp4,
  "trial-phone-hevc.mov": trialPhoneHevcMov,
  "voice-noise.mp4": voiceNoiseMp4,
  "voice-silence.mp4": voiceSilenceMp4,
  "voice-speech.mp4": voiceSpeechMp4,
  "voice-tone.mp4": voiceToneMp4,
  "zlib-subtitles.mkv": zlibSubtitlesMkv,
} as const;

/** The name of a file in test/fixtures/media (see its README.md for what each holds). */
export type MediaFixture = keyof typeof DATA_URLS;

/** Every media fixture's name. */
export const MEDIA_FIXTURES = Object.keys(DATA_URLS) as MediaFixture[];

/** The bytes of a media fixture (a fresh copy each call, so tests cannot disturb each other). */
export function fixtureBytes(name: MediaFixture): Uint8Array {
  return dataUrlBytes(DATA_URLS[name]);
}
