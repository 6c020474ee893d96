// A date slider with auto-play from the oldest time to now (graph and facts views).
import { h, when } from "./dom.js";

const STEPS = 200;

export class TimeSlider {
  constructor(id, start, end, onchange) {
    this.start = start;
    this.end = Math.max(end, start + 1);
    this.onchange = onchange;
    this.timer = null;
    this.range = h("input", { type: "range", id, min: 0, max: STEPS, value: STEPS, step: 1 });
    this.label = h("span", { id: `${id}-label`, class: "muted" });
    this.play = h("button", { id: `${id}-play`, type: "button", onclick: () => this.toggle() }, "play");
    this.range.addEventListener("input", () => this.changed());
    this.element = h("div", { class: "slider" }, "as of ", this.range, this.label, this.play);
    this.show();
  }
  get value() {
    const step = Number(this.range.value);
    return step >= STEPS ? Date.now() : this.start + (this.end - this.start) * (step / STEPS);
  }
  get iso() { return new Date(this.value).toISOString(); }
  get atNow() { return Number(this.range.value) >= STEPS; }
  show() { this.label.textContent = this.atNow ? "now" : when(this.iso).slice(0, 16); }
  changed() { this.show(); this.onchange(this.value); }
  set(step) { this.range.value = String(step); this.changed(); }
  toggle() {
    if (this.timer) return this.stop();
    this.play.textContent = "pause";
    let step = Number(this.range.value) >= STEPS ? 0 : Number(this.range.value);
    this.set(step);
    this.timer = setInterval(() => {
      step += 2;
      this.set(Math.min(step, STEPS));
      if (step >= STEPS) this.stop();
    }, 60);
  }
  stop() {
    clearInterval(this.timer);
    this.timer = null;
    this.play.textContent = "play";
  }
}
