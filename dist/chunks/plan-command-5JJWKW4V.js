import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
} from "./chunk-ZD4CBCVK.js";
import "./chunk-6NVIIRNY.js";
import "./chunk-7SQHJC3I.js";
import "./chunk-5MXHB5FS.js";
import "./chunk-JTMCR3R3.js";
import "./chunk-2NPKO5MB.js";
import "./chunk-E33N43T7.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
};
