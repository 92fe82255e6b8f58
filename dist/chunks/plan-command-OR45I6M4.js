import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
} from "./chunk-W4UOEKRU.js";
import "./chunk-6NVIIRNY.js";
import "./chunk-VM3FXNHC.js";
import "./chunk-RGXREVIB.js";
import "./chunk-JTMCR3R3.js";
import "./chunk-TWYLNNVR.js";
import "./chunk-VPWWDVLG.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
};
