// Playback of the recorded frames in real time (times the speed), looping or stopping at the end.
export class Playback {
  /** `onFrame(frame)` hears of every change of the current frame; `onPlaying(bool)` of play and pause. */
  constructor(times, { onFrame, onPlaying }) {
    this.times = times;
    this.count = times.length;
    this.frame = 0;
    this.playing = false;
    this.speed = 1;
    this.loop = true;
    this.onFrame = onFrame;
    this.onPlaying = onPlaying;
    this.simTime = this.count ? times[0] : 0;
    this.lastTick = null;
    this.tick = this.tick.bind(this);
  }

  get duration() { return this.count ? this.times[this.count - 1] - this.times[0] : 0; }

  /** Last frame whose time is not after t. */
  frameAt(t) {
    let lo = 0, hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.times[mid] <= t) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  setFrame(f) {
    if (!this.count) return;
    this.frame = Math.max(0, Math.min(this.count - 1, f));
    this.simTime = this.times[this.frame];
    this.onFrame(this.frame);
  }

  play() {
    if (this.playing || this.count < 2) return;
    if (this.frame === this.count - 1) this.setFrame(0);  // at the end: start over
    this.playing = true;
    this.lastTick = null;
    this.onPlaying(true);
    requestAnimationFrame(this.tick);
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    this.onPlaying(false);
  }

  toggle() { this.playing ? this.pause() : this.play(); }

  tick(now) {
    if (!this.playing) return;
    if (this.lastTick !== null) {
      this.simTime += ((now - this.lastTick) / 1000) * this.speed;
      const end = this.times[this.count - 1];
      if (this.simTime > end) {
        if (this.loop) this.simTime = this.times[0] + ((this.simTime - end) % Math.max(this.duration, 1e-9));
        else {
          this.simTime = end;
          this.pause();
        }
      }
      const f = this.frameAt(this.simTime);
      if (f !== this.frame) {
        this.frame = f;
        this.onFrame(f);
      }
    }
    this.lastTick = now;
    if (this.playing) requestAnimationFrame(this.tick);
  }
}
