import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
} from "./chunk-XYJXHZR4.js";
import "./chunk-6NVIIRNY.js";
import "./chunk-GG7LKKK6.js";
import "./chunk-XI7GJBAV.js";
import "./chunk-JTMCR3R3.js";
import "./chunk-TWYLNNVR.js";
import "./chunk-NH22XKGU.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
};
