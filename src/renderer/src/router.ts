// The renderer's screens; hash history because the app is loaded from a file, not a server.
import { createRouter, createWebHashHistory } from 'vue-router'
import AboutView from './views/AboutView.vue'
import AccountsView from './views/AccountsView.vue'
import BulkView from './views/bulk/BulkView.vue'
import OverviewView from './views/OverviewView.vue'
import ProfilesView from './views/ProfilesView.vue'
import RecordsView from './views/RecordsView.vue'
import ReconcileView from './views/reconcile/ReconcileView.vue'
import ReviewView from './views/reconcile/ReviewView.vue'

export const routes = [
  { path: '/', name: 'overview', component: OverviewView, meta: { title: 'Overview' } },
  { path: '/records', name: 'records', component: RecordsView, meta: { title: 'Records' } },
  { path: '/reconcile', name: 'reconcile', component: ReconcileView, meta: { title: 'Reconcile' } },
  { path: '/reconcile/:id', name: 'review', component: ReviewView, meta: { title: 'Reconcile', menu: false } },
  { path: '/bulk', name: 'bulk', component: BulkView, meta: { title: 'Bulk files' } },
  { path: '/accounts', name: 'accounts', component: AccountsView, meta: { title: 'Virtual accounts' } },
  { path: '/profiles', name: 'profiles', component: ProfilesView, meta: { title: 'Profiles' } },
  { path: '/about', name: 'about', component: AboutView, meta: { title: 'About' } }
] as const

export const router = createRouter({ history: createWebHashHistory(), routes: [...routes] })
