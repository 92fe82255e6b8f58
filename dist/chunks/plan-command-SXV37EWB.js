import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
} from "./chunk-DK5JKG32.js";
import "./chunk-6NVIIRNY.js";
import "./chunk-NBWEJWBA.js";
import "./chunk-LRKSDCMJ.js";
import "./chunk-BE46HTGE.js";
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
