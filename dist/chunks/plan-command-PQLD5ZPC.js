import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
} from "./chunk-W6PCHAZ4.js";
import "./chunk-6NVIIRNY.js";
import "./chunk-NBWEJWBA.js";
import "./chunk-KI7EKDGO.js";
import "./chunk-BE46HTGE.js";
import "./chunk-K6FIV3ZZ.js";
import "./chunk-Z7KUOCYC.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
};
