import type { ReactElement } from 'react';
import DashboardIcon from '@mui/icons-material/DashboardOutlined';
import BrandIcon from '@mui/icons-material/BrandingWatermarkOutlined';
import PlacementIcon from '@mui/icons-material/PlaceOutlined';
import VideoIcon from '@mui/icons-material/VideoLibraryOutlined';
import VerifiedIcon from '@mui/icons-material/VerifiedOutlined';
import ProjectIcon from '@mui/icons-material/WorkOutline';
import TagIcon from '@mui/icons-material/SellOutlined';
import EditorIcon from '@mui/icons-material/MovieEdit';

export interface NavItem {
  label: string;
  path: string;
  icon: ReactElement;
}

/** The eight entries of the side navigation, in the spec's order. */
export const NAV_ITEMS: NavItem[] = [
  { label: 'Dashboard', path: '/', icon: <DashboardIcon /> },
  { label: 'Brands', path: '/brands', icon: <BrandIcon /> },
  { label: 'Placements', path: '/placements', icon: <PlacementIcon /> },
  { label: 'Videos', path: '/videos', icon: <VideoIcon /> },
  { label: 'Verification', path: '/verification', icon: <VerifiedIcon /> },
  { label: 'Projects', path: '/projects', icon: <ProjectIcon /> },
  { label: 'Tags', path: '/tags', icon: <TagIcon /> },
  { label: 'Editor', path: '/editor', icon: <EditorIcon /> },
];
