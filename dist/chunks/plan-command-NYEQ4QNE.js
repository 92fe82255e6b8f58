import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
} from "./chunk-FBXDFMRR.js";
import "./chunk-6NVIIRNY.js";
import "./chunk-NBWEJWBA.js";
import "./chunk-OD33NOSR.js";
import "./chunk-JTMCR3R3.js";
import "./chunk-M3LSJILH.js";
import "./chunk-Z7KUOCYC.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
};
