import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
} from "./chunk-HKLKGM77.js";
import "./chunk-6NVIIRNY.js";
import "./chunk-4YX523UU.js";
import "./chunk-2TKPZBPK.js";
import "./chunk-JTMCR3R3.js";
import "./chunk-TWYLNNVR.js";
import "./chunk-F7D6CLP7.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
};
