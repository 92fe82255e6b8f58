import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
} from "./chunk-DUK6HMNC.js";
import "./chunk-6NVIIRNY.js";
import "./chunk-MGM3XGQY.js";
import "./chunk-BZDLDIBJ.js";
import "./chunk-JTMCR3R3.js";
import "./chunk-WD3LMSGC.js";
import "./chunk-7WXVBIFX.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
};
